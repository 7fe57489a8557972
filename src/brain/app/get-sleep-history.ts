/** Use case: past consolidations (`sleep history`), newest first. */
import { SomnusError } from '../../engine/core/errors.ts'
import type { SleepHistoryEntry } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** The newest `limit` consolidations; `limit` must be a whole number of at least 1. */
export async function getSleepHistory(brain: Brain, limit: number): Promise<SleepHistoryEntry[]> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new SomnusError(
      'USAGE',
      `--limit must be a whole number of at least 1, got ${String(limit)}. Example: somnus sleep history -n 5`,
    )
  }
  return (await brain.state.readHistory()).slice(0, limit)
}
