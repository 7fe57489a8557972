/**
 * A worker thread of the extractive model: answers `summarizeLevels` requests from its pool
 * (extractive-thread-pool.ts), so a busy service summarizes on every core. No state but the
 * summarizer's caches.
 */
import { parentPort } from 'node:worker_threads'
import type { TextUnit } from '../../core/extractive/sentences.ts'
import { summarizeLevels } from '../../core/extractive/summarize.ts'

/** One request: summaries of `units` at `budgets`, as `summarizeLevels` makes them. */
export interface LevelsRequest {
  id: number
  units: TextUnit[]
  budgets: number[]
}

parentPort?.on('message', (request: LevelsRequest) => {
  try {
    parentPort?.postMessage({
      id: request.id,
      value: summarizeLevels(request.units, request.budgets),
    })
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: String(error) })
  }
})
