import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MaxHeap } from './max-heap.ts'

describe('MaxHeap', () => {
  it('gives back every pushed item, first by its order, whatever the pushes and pops between', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined })),
        (ops) => {
          const heap = new MaxHeap<number>((left, right) => left > right)
          const model: number[] = []
          for (const op of ops) {
            if (op === undefined) {
              model.sort((left, right) => right - left)
              expect(heap.pop()).toBe(model.shift())
            } else {
              heap.push(op)
              model.push(op)
            }
            expect(heap.size).toBe(model.length)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})
