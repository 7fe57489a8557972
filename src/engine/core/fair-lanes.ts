/**
 * Fair turns between lanes (a lane is a tenant, or the consolidation jobs): each lane has a queue,
 * the lane whose last start is oldest goes next (a lane new to the pool first), a lane never runs
 * more than its limit at once, and a lane
 * (or the whole) with too much waiting is refused instead of queued. So one tenant's thousand
 * heavy requests wait behind each other, not in front of another tenant's one. Pure bookkeeping:
 * whoever owns the workers asks `next()` when one is free and calls `finish()` when it is done.
 */

/** How much a lane may run and hold waiting. */
export interface LaneLimits {
  running: number
  waiting: number
}

/** The options of a set of lanes. */
export interface FairLanesOptions {
  /** Each lane's limits (asked once, when the lane first appears). */
  limits(lane: string): LaneLimits
  /**
   * Items waiting in all lanes together, at most, counted when a bounded lane pushes: a lane with
   * no waiting limit (consolidation jobs, bounded by their own concurrency) is never refused.
   */
  maxWaiting: number
}

/** Lanes taking turns. */
export interface FairLanes<Item> {
  /** Queues `item` in `lane`; false (nothing queued) when the lane or the whole is full. */
  push(lane: string, item: Item): boolean
  /** The next item to run (its lane now counts it as running), or undefined when none may run. */
  next(): { lane: string; item: Item } | undefined
  /** Marks one item of `lane` finished. */
  finish(lane: string): void
  /** Removes every waiting item (each lane's running count stays until finished). */
  drain(): Item[]
  readonly waiting: number
}

interface Lane<Item> {
  limits: LaneLimits
  queue: Item[]
  /** Index of the first item still waiting (the queue is trimmed when it runs empty). */
  head: number
  running: number
  /** When it last started an item (a count of starts; 0: never). */
  lastStart: number
}

/** Creates an empty set of lanes. */
export function fairLanes<Item>(options: FairLanesOptions): FairLanes<Item> {
  const lanes = new Map<string, Lane<Item>>()
  // Lanes with work waiting, in the order they began waiting (which breaks ties).
  const queued = new Set<string>()
  let waiting = 0
  let starts = 0

  const laneOf = (name: string): Lane<Item> => {
    let lane = lanes.get(name)
    if (!lane) {
      lane = { limits: options.limits(name), queue: [], head: 0, running: 0, lastStart: 0 }
      lanes.set(name, lane)
    }
    return lane
  }
  const forget = (name: string, lane: Lane<Item>) => {
    if (lane.running === 0 && lane.head === lane.queue.length) lanes.delete(name)
  }

  return {
    push(name, item) {
      const lane = laneOf(name)
      const bounded = lane.limits.waiting !== Number.POSITIVE_INFINITY
      if (
        lane.queue.length - lane.head >= lane.limits.waiting ||
        (bounded && waiting >= options.maxWaiting)
      ) {
        forget(name, lane)
        return false
      }
      queued.add(name)
      lane.queue.push(item)
      waiting += 1
      return true
    },
    next() {
      let chosen: [string, Lane<Item>] | undefined
      for (const name of queued) {
        const lane = lanes.get(name) as Lane<Item>
        if (lane.running >= lane.limits.running) continue
        if (!chosen || lane.lastStart < chosen[1].lastStart) chosen = [name, lane]
      }
      if (!chosen) return undefined
      const [name, lane] = chosen
      const item = lane.queue[lane.head] as Item
      lane.head += 1
      lane.running += 1
      starts += 1
      lane.lastStart = starts
      waiting -= 1
      if (lane.head === lane.queue.length) {
        lane.queue = []
        lane.head = 0
        queued.delete(name)
      }
      return { lane: name, item }
    },
    finish(name) {
      const lane = lanes.get(name)
      if (!lane || lane.running === 0) return
      lane.running -= 1
      forget(name, lane)
    },
    drain() {
      const items: Item[] = []
      for (const [name, lane] of lanes) {
        items.push(...lane.queue.slice(lane.head))
        lane.queue = []
        lane.head = 0
        forget(name, lane)
      }
      queued.clear()
      waiting = 0
      return items
    },
    get waiting() {
      return waiting
    },
  }
}
