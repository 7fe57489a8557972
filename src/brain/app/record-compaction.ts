/** The PreCompact hook's use case: remember that the context was compacted, and at what debt. */
import { recordCompaction } from '../core/session-ledger.ts'
import type { Brain } from './brain.ts'

/** Puts a compaction record (trigger `manual`/`auto`, debt, counts) on top of the log, cap 20. */
export async function logCompaction(brain: Brain, trigger: string | null): Promise<void> {
  const now = brain.clock.now()
  await brain.state.update((state) => ({
    state: recordCompaction(state, { trigger, now }),
    result: undefined,
  }))
}
