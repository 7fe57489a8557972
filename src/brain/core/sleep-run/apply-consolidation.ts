/**
 * What a finished consolidation does to the ledger: clears exactly what it consolidated, adds its
 * triggers and a history entry, once (the run id guards a second time). Every unit-of-work
 * adapter applies it the same way.
 */
import { addTrigger, type ConsolidatedItems, completeConsolidation } from '../ledger.ts'
import type { SleepHistoryEntry, SleepState } from '../sleep-state.ts'

/** The ledger half of a consolidation, as it is planned (and journaled). */
export interface LedgerChange {
  summary: string
  /** When the run read the ledger: whatever was recorded after it waits for the next sleep. */
  epoch: string
  triggers: { when: string; remind: string; source: string }[]
  /** Exactly what the run read: cleared by id. */
  consolidated: ConsolidatedItems
  /** The model that made the observations and the tokens it used, kept in the history entry. */
  model?: string
  usage?: { input_tokens: number; output_tokens: number }
}

/** The ledger after run `runId`'s change, or null when that run was already applied. */
export function applyConsolidation(
  state: SleepState,
  input: { runId: string; change: LedgerChange; now: Date; nextTriggerId: () => string },
): { state: SleepState; history: SleepHistoryEntry } | null {
  if (state.last_sleep_run_id === input.runId) return null
  const { change } = input
  const completed = completeConsolidation(state, {
    summary: change.summary,
    now: input.now,
    epoch: change.epoch,
    consolidated: change.consolidated,
  })
  let next: SleepState = { ...completed.state, last_sleep_run_id: input.runId }
  for (const trigger of change.triggers) {
    next = addTrigger(next, { ...trigger, id: input.nextTriggerId(), now: input.now })
  }
  const history = {
    ...completed.history,
    // Names the run, so the dashboard finds the diff the fs unit of work kept for it.
    run_id: input.runId,
    ...(change.model ? { model: change.model } : {}),
    ...(change.usage ? { usage: change.usage } : {}),
  }
  return { state: next, history }
}
