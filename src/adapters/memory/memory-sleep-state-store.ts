/** The sleep ledger held in memory: the shipped fake for tests and dry runs. */
import {
  freshSleepState,
  type SleepHistoryEntry,
  type SleepState,
  SleepStateSchema,
} from '../../core/sleep-state.ts'
import type { SleepStateStore } from '../../ports/sleep-state-store.ts'

/** A `SleepStateStore` in memory. Values are deep-copied in and out, as a file store would. */
export function createMemorySleepStateStore(
  initial: { state?: SleepState; history?: SleepHistoryEntry[] } = {},
): SleepStateStore {
  let state = structuredClone(initial.state ?? freshSleepState())
  let history = structuredClone(initial.history ?? [])
  let queue: Promise<unknown> = Promise.resolve()
  let consolidating = false
  return {
    async exclusive(task) {
      if (consolidating) return { ran: false }
      consolidating = true
      try {
        return { ran: true, value: await task() }
      } finally {
        consolidating = false
      }
    },
    read: async () => structuredClone(state),
    readHistory: async () => structuredClone(history),
    update<T>(change: Parameters<SleepStateStore['update']>[0]) {
      // Serialise updates like the file lock does, so the two adapters behave alike.
      const run = queue.then(() => {
        const outcome = change(structuredClone(state))
        state = SleepStateSchema.parse(structuredClone(outcome.state))
        if (outcome.history) history = [structuredClone(outcome.history), ...history]
        return outcome.result as T
      })
      queue = run.catch(() => undefined)
      return run
    },
  }
}
