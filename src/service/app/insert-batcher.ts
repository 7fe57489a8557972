/**
 * Coalesces single inserts that arrive together into one multi-row insert. Under load, hundreds of
 * requests a second each paying a transaction would starve the connection pool; here each waits
 * for the batch it joined to commit, so an acknowledged item is always stored. A batch that fails
 * is retried one item at a time, so one bad item fails only its own request.
 */

/** Options of a batcher. */
export interface InsertBatcherOptions<Item> {
  /** Stores every item or throws (nothing stored). */
  insertAll(items: readonly Item[]): Promise<void>
  /** The most items one insert carries. */
  maxBatch?: number
  /** How many inserts may run at once (keep it at or under the connection pool size). */
  concurrency?: number
}

/** Adds items; each promise settles when its item is stored (or failed to be). */
export interface InsertBatcher<Item> {
  add(item: Item): Promise<void>
  /** Resolves when every item added so far has settled. */
  drain(): Promise<void>
}

interface Waiting<Item> {
  item: Item
  resolve(): void
  reject(error: unknown): void
}

/** A batcher that starts an insert whenever a connection is free, with everything waiting. */
export function insertBatcher<Item>(options: InsertBatcherOptions<Item>): InsertBatcher<Item> {
  const maxBatch = options.maxBatch ?? 500
  const concurrency = options.concurrency ?? 2
  const queue: Waiting<Item>[] = []
  let running = 0
  const idle: Array<() => void> = []

  const settleIdle = () => {
    if (running === 0 && queue.length === 0) for (const done of idle.splice(0)) done()
  }

  const insertOneByOne = async (batch: Waiting<Item>[]) => {
    for (const waiting of batch) {
      try {
        await options.insertAll([waiting.item])
        waiting.resolve()
      } catch (error) {
        waiting.reject(error)
      }
    }
  }

  const run = async (batch: Waiting<Item>[]) => {
    try {
      await options.insertAll(batch.map((waiting) => waiting.item))
      for (const waiting of batch) waiting.resolve()
    } catch (error) {
      if (batch.length === 1) batch[0]?.reject(error)
      else await insertOneByOne(batch)
    }
  }

  const start = () => {
    while (running < concurrency && queue.length > 0) {
      const batch = queue.splice(0, maxBatch)
      running += 1
      void run(batch).finally(() => {
        running -= 1
        // Whatever arrived while this insert ran goes next, as one batch.
        queueMicrotask(start)
        settleIdle()
      })
    }
  }

  return {
    add: (item) =>
      new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        // Requests parsed in the same turn of the event loop join one batch.
        if (queue.length === 1) queueMicrotask(start)
      }),
    drain: () =>
      new Promise<void>((resolve) => {
        idle.push(resolve)
        settleIdle()
      }),
  }
}
