/** The sleep ledger held in memory: the shipped fake for tests and dry runs. */
import {
  freshSleepState,
  type SleepHistoryEntry,
  type SleepState,
  SleepStateSchema,
} from '../../core/sleep-state.ts'
import { mergeQueuedStops, type QueuedStop } from '../../core/stop-inbox.ts'
import type { SleepStateStore } from '../../ports/sleep-state-store.ts'

/** A `SleepStateStore` in memory. Values are deep-copied in and out, as a file store would. */
export function createMemorySleepStateStore(
  initial: { state?: SleepState; history?: SleepHistoryEntry[] } = {},
): SleepStateStore {
  let state = structuredClone(initial.state ?? freshSleepState())
  let history = structuredClone(initial.history ?? [])
  let queue: Promise<unknown> = Promise.resolve()
  let consolidating = false
  /** Queued Stops, kept like the file store's inbox: merged ones stay until the next merge. */
  let inbox: QueuedStop[] = []
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
    read: async (options = {}) =>
      structuredClone(options.inbox === false ? state : mergeQueuedStops(state, inbox)),
    queue: async (stop) => {
      inbox = [...inbox, structuredClone(stop)]
    },
    readHistory: async () => structuredClone(history),
    update<T>(change: Parameters<SleepStateStore['update']>[0]) {
      // Serialise updates like the file lock does, so the two adapters behave alike.
      const run = queue.then(() => {
        const present = inbox
        const outcome = change(structuredClone(mergeQueuedStops(state, present)))
        state = SleepStateSchema.parse(structuredClone(outcome.state))
        if (outcome.history) history = [structuredClone(outcome.history), ...history]
        // What was read is now in the ledger: retired, as the file store retires its inbox.
        inbox = inbox.filter((stop) => !present.includes(stop))
        return outcome.result as T
      })
      queue = run.catch(() => undefined)
      return run
    },
  }
}
