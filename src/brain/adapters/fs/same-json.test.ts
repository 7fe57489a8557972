import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sameJson } from './same-json.ts'

/** Values JSON.stringify treats in every way it can: plain, special and odd. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.constantFrom(null, undefined, true, false, 0, -0, 1, Number.NaN, Infinity, '', 'a', 'b'),
    fc.constant(new Date(0)),
    fc.constant(() => 1),
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 }),
  ),
})).node

describe('sameJson', () => {
  it('says what comparing the two JSON texts says', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b))
        expect(sameJson(a, structuredCloneOrSelf(a))).toBe(true)
      }),
      { numRuns: 5_000 },
    )
  })

  it('sees key order, as the written file would', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false)
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true)
    expect(sameJson([undefined], [null])).toBe(true)
  })
})

/** A deep copy where one can be made (functions cannot), so equal data is not the same object. */
function structuredCloneOrSelf(value: unknown): unknown {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}
