import fc from 'fast-check'
import { describe, it } from 'vitest'
import { formatCount } from './format-count.ts'

describe('formatCount', () => {
  it('writes every number as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constantFrom(0, -0, 999, 1000)),
        (value) => formatCount(value) === value.toLocaleString('en-US'),
      ),
      { numRuns: 5000 },
    )
  })
})
