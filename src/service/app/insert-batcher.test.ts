import { describe, expect, it } from 'vitest'
import { insertBatcher } from './insert-batcher.ts'

/** A store that records each insert call and can be told to refuse some items. */
function recordingStore(refuse: (item: number) => boolean = () => false) {
  const calls: number[][] = []
  const stored: number[] = []
  let inFlight = 0
  let maxInFlight = 0
  return {
    calls,
    stored,
    maxInFlight: () => maxInFlight,
    insertAll: async (items: readonly number[]) => {
      inFlight += 1
      maxInFlight = Math.max(maxInFlight, inFlight)
      calls.push([...items])
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight -= 1
      if (items.some(refuse)) throw new Error(`refused ${items.filter(refuse).join(',')}`)
      stored.push(...items)
    },
  }
}

describe('insertBatcher', () => {
  it('coalesces items that arrive while inserts run, within the concurrency, and loses none', async () => {
    const store = recordingStore()
    const batcher = insertBatcher({ insertAll: store.insertAll, maxBatch: 50, concurrency: 2 })
    const items = Array.from({ length: 300 }, (_, index) => index)
    await Promise.all(items.map((item) => batcher.add(item)))
    expect(store.stored.sort((a, b) => a - b)).toEqual(items)
    expect(store.calls.length).toBeLessThan(20)
    expect(Math.max(...store.calls.map((call) => call.length))).toBeLessThanOrEqual(50)
    expect(store.maxInFlight()).toBeLessThanOrEqual(2)
  })

  it('fails only the bad item of a batch; the others are stored and resolve', async () => {
    const store = recordingStore((item) => item === 7)
    const batcher = insertBatcher({ insertAll: store.insertAll, concurrency: 1 })
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => batcher.add(index)),
    )
    const rejected = results.flatMap((result, index) =>
      result.status === 'rejected' ? [index] : [],
    )
    expect(rejected).toEqual([7])
    expect(store.stored.sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => index).filter((item) => item !== 7),
    )
  })

  it('drain waits for every item added so far', async () => {
    const store = recordingStore()
    const batcher = insertBatcher({ insertAll: store.insertAll })
    for (let index = 0; index < 10; index++) void batcher.add(index)
    await batcher.drain()
    expect(store.stored).toHaveLength(10)
  })
})
