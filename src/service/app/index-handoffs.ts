/**
 * Search indexing off the write path: a handoff is stored without its search vector (ingest never
 * pays for it) and indexed here, in batches, between writes. Search reads handoffs not yet
 * indexed too, so this only makes searches of a large backlog fast again.
 */
import type { ServiceDependencies } from './service-dependencies.ts'

/** Handoffs indexed per statement. */
export const INDEX_BATCH = 500

/**
 * Indexes pending handoffs, a batch at a time, until none is left, `maxBatches` ran, or `signal`
 * fired; returns how many it indexed.
 */
export async function indexPendingHandoffs(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  options: { batch?: number; maxBatches?: number; signal?: AbortSignal | undefined } = {},
): Promise<number> {
  const batch = options.batch ?? INDEX_BATCH
  const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY
  let total = 0
  for (let run = 0; run < maxBatches && options.signal?.aborted !== true; run += 1) {
    const indexed = await dependencies.stores.handoffs.indexPending(batch)
    total += indexed
    // A batch of big handoffs indexes fewer than asked: only an empty one means none is left.
    if (indexed === 0) break
  }
  return total
}
