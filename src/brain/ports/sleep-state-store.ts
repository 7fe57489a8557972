/** Where the sleep ledger and its history live; every change is one locked read-modify-write. */
import type { SleepHistoryEntry, SleepState } from '../core/sleep-state.ts'
import type { QueuedStop } from '../core/stop-inbox.ts'

/** What a change to the ledger returns: the next state, a result for the caller, maybe history. */
export interface StateChange<T> {
  /** The full next state to persist. Return the input unchanged to skip the write. */
  state: SleepState
  /** Whatever the caller wants back. */
  result: T
  /** A consolidation record to put at the top of the history, under the same lock. */
  history?: SleepHistoryEntry
}

/** What `exclusive` did: ran the task, or found another consolidation holding the brain. */
export type Exclusive<T> = { ran: true; value: T } | { ran: false }

/** The ledger store. Adapters: `fs-sleep-state-store.ts` (files), `memory-sleep-state-store.ts`. */
export interface SleepStateStore {
  /**
   * The current ledger: fresh defaults when there is none, or when it was corrupt (then set aside).
   * Stops waiting in the inbox are shown merged, and merged for real when the lock is free this
   * instant. `inbox: false` reads the ledger alone: a Stop about to take the lock merges the inbox
   * in its own update, and reading it twice, or a second write, would only cost it time.
   */
  read(options?: { inbox?: boolean }): Promise<SleepState>
  /**
   * Reads the ledger, computes the change and writes it back, all while holding the lock, so that
   * concurrent hooks never lose an update. The change function must be pure: it may run once only.
   */
  update<T>(change: (state: SleepState) => StateChange<T>): Promise<T>
  /**
   * Puts a Stop in the inbox without taking the lock (every Stop does, before anything else, and
   * again when it could not take the lock in time): `read()` shows it at once, and the next
   * `update()` (by any process) merges it exactly once.
   */
  queue(stop: QueuedStop): Promise<void>
  /** All consolidation records, newest first. */
  readHistory(): Promise<SleepHistoryEntry[]>
  /**
   * Runs `task` as the brain's only consolidation, across processes: while it runs, another
   * `exclusive` call gets `{ ran: false }` at once and runs nothing. Ledger updates inside the
   * task still take the ordinary short lock, so hooks keep recording turns meanwhile.
   */
  exclusive<T>(task: () => Promise<T>): Promise<Exclusive<T>>
}
