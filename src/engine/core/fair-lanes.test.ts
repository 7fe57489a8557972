import { describe, expect, it } from 'vitest'
import { fairLanes } from './fair-lanes.ts'

const ONE_AT_A_TIME = { running: 1, waiting: 10 }

/** Runs every item to the end, one worker: the order items ran in. */
function runAll(lanes: ReturnType<typeof fairLanes<string>>): string[] {
  const order: string[] = []
  for (let next = lanes.next(); next; next = lanes.next()) {
    order.push(next.item)
    lanes.finish(next.lane)
  }
  return order
}

describe('fairLanes', () => {
  it("takes turns: a tenant's backlog does not run ahead of another tenant's one item", () => {
    const lanes = fairLanes<string>({ limits: () => ONE_AT_A_TIME, maxWaiting: 100 })
    for (const item of ['a1', 'a2', 'a3', 'a4']) lanes.push('a', item)
    lanes.push('b', 'b1')
    lanes.push('c', 'c1')
    lanes.push('c', 'c2')
    expect(runAll(lanes)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'a4'])
  })

  it('lets a tenant that arrives later go before the next item of a tenant that just ran', () => {
    const lanes = fairLanes<string>({ limits: () => ONE_AT_A_TIME, maxWaiting: 100 })
    lanes.push('a', 'a1')
    const first = lanes.next()
    for (const item of ['a2', 'a3']) lanes.push('a', item)
    lanes.push('b', 'b1')
    lanes.finish(first?.lane ?? '')
    expect(runAll(lanes)).toEqual(['b1', 'a2', 'a3'])
  })

  it('never runs more of a lane at once than its limit, while others still get their turn', () => {
    const lanes = fairLanes<string>({
      limits: (lane) => (lane === 'jobs' ? { running: 2, waiting: 100 } : ONE_AT_A_TIME),
      maxWaiting: 100,
    })
    for (const item of ['a1', 'a2']) lanes.push('a', item)
    for (const item of ['j1', 'j2', 'j3']) lanes.push('jobs', item)
    const started = [lanes.next(), lanes.next(), lanes.next(), lanes.next()].map(
      (next) => next?.item,
    )
    // a runs one at a time, jobs two: the fourth worker finds nothing it may start.
    expect(started).toEqual(['a1', 'j1', 'j2', undefined])
    lanes.finish('a')
    expect(lanes.next()?.item).toBe('a2')
    lanes.finish('jobs')
    expect(lanes.next()?.item).toBe('j3')
  })

  it("refuses an item when its lane's queue or the whole is full, and queues it again once there is room", () => {
    const lanes = fairLanes<string>({ limits: () => ({ running: 1, waiting: 2 }), maxWaiting: 3 })
    expect(lanes.push('a', 'a1')).toBe(true)
    expect(lanes.push('a', 'a2')).toBe(true)
    expect(lanes.push('a', 'a3')).toBe(false)
    expect(lanes.push('b', 'b1')).toBe(true)
    expect(lanes.push('c', 'c1')).toBe(false)
    expect(lanes.waiting).toBe(3)
    expect(lanes.next()?.item).toBe('a1')
    expect(lanes.push('a', 'a3')).toBe(true)
    expect(lanes.drain().sort()).toEqual(['a2', 'a3', 'b1'])
    expect(lanes.waiting).toBe(0)
    expect(lanes.next()).toBeUndefined()
  })

  it('forgets a lane once it has nothing running or waiting', () => {
    const limits: string[] = []
    const lanes = fairLanes<string>({
      limits: (lane) => {
        limits.push(lane)
        return ONE_AT_A_TIME
      },
      maxWaiting: 10,
    })
    lanes.push('a', 'a1')
    runAll(lanes)
    lanes.push('a', 'a2')
    expect(limits).toEqual(['a', 'a'])
  })
})
