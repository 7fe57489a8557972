/**
 * Pure operations on the sleep ledger: each takes a state and returns a new one, never touching the
 * input, so a store can run them inside its lock and tests can run them without a disk.
 * Rules follow agentcontext's `sleep.ts`, `bookmark.ts`, `trigger.ts` (research/seed-systems.md 1.2-1.5).
 */
import { SomnusError } from '../../engine/core/errors.ts'
import type { ScoringPolicy } from '../../engine/core/scoring/scoring-policy.ts'
import { isManualSession } from './session-ledger.ts'
import type {
  Bookmark,
  Salience,
  SessionRecord,
  SleepHistoryEntry,
  SleepState,
  Trigger,
} from './sleep-state.ts'

/** Triggers fire at most this often before `sleep done` expires them (agentcontext's default). */
export const DEFAULT_MAX_FIRES = 3

/** The UTC calendar date of `now` as YYYY-MM-DD, the format of `last_sleep` and access dates. */
export function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/** The debt the sessions add up to; pending (null) scores count as 0 until they are scored. */
export function sumOfScores(sessions: readonly SessionRecord[]): number {
  return sessions.reduce((sum, session) => sum + (session.score ?? 0), 0)
}

/** The state with `debt` set to the sum of its sessions' scores (repairs hand-edited ledgers). */
export function recomputeDebt(state: SleepState): SleepState {
  return { ...state, debt: sumOfScores(state.sessions) }
}

/**
 * Records debt for work no transcript shows (a design discussion, a decision): a `manual-<ms>`
 * session, newest first, that the SessionStart catch-up never re-analyses (its score is set).
 */
export function addManualEntry(
  state: SleepState,
  input: { score: number; description: string; now: Date; policy: ScoringPolicy },
): SleepState {
  const { score, policy } = input
  if (!Number.isInteger(score) || score < 1 || score > policy.maxManualScore) {
    throw new SomnusError(
      'USAGE',
      `Score must be a whole number from 1 to ${policy.maxManualScore} (the ${policy.name} scoring policy), got ${String(score)}. Example: somnus sleep add 2 "Designed the auth flow"`,
    )
  }
  const description = input.description.trim()
  if (description === '') {
    throw new SomnusError(
      'USAGE',
      'A description is required: say what work this debt stands for. Example: somnus sleep add 2 "Designed the auth flow"',
    )
  }
  const session: SessionRecord = {
    session_id: uniqueManualId(state, input.now),
    transcript_path: null,
    stopped_at: input.now.toISOString(),
    last_assistant_message: description,
    change_count: null,
    tool_count: null,
    score,
    task_slugs: [],
  }
  return { ...state, sessions: [session, ...state.sessions], debt: state.debt + score }
}

function uniqueManualId(state: SleepState, now: Date): string {
  // Two entries within one millisecond must not share an id: a later Stop upsert keys on it.
  const base = `manual-${now.getTime()}`
  const taken = new Set(state.sessions.map((session) => session.session_id))
  let candidate = base
  for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${base}-${suffix}`
  return candidate
}

/**
 * Marks the start of a consolidation. The instant becomes the epoch, and every session and
 * bookmark recorded so far is marked as seen by it (`sleep_seen_stopped_at`, `sleep_seen`):
 * `completeSleep` clears exactly those, so work recorded after the start, even work stamped
 * earlier by a hook that waited for the lock, survives. A second start moves the epoch, as
 * agentcontext does, and says so.
 */
export function startSleep(
  state: SleepState,
  now: Date,
): { state: SleepState; alreadyRunning: boolean; previousStartedAt: string | null } {
  const previousStartedAt = state.sleep_started_at
  return {
    state: {
      ...state,
      sleep_started_at: now.toISOString(),
      sessions: state.sessions.map((session) => ({
        ...session,
        [SEEN_STOPPED_AT]: session.stopped_at,
      })),
      bookmarks: state.bookmarks.map((bookmark) => ({ ...bookmark, [SEEN]: true })),
    },
    alreadyRunning: previousStartedAt !== null,
    previousStartedAt,
  }
}

/** The `stopped_at` a session had when `sleep start` saw it (kept as an extra ledger key). */
const SEEN_STOPPED_AT = 'sleep_seen_stopped_at'
/** Set on a bookmark that `sleep start` saw. */
const SEEN = 'sleep_seen'

/**
 * Ends a consolidation (`sleep done`). After `sleep start`, it clears exactly what the start saw
 * and that has not changed since (a session that stopped again keeps its row), by id; without a
 * start, everything. Returns the new state and the history entry to prepend to
 * `.sleep-history.json`.
 */
export function completeSleep(
  state: SleepState,
  input: { summary: string; now: Date },
): { state: SleepState; history: SleepHistoryEntry } {
  const summary = input.summary.trim()
  if (summary === '') {
    throw new SomnusError(
      'USAGE',
      'A summary is required: say what was consolidated. Example: somnus sleep done "Folded auth decisions into memory"',
    )
  }
  const started = state.sleep_started_at !== null
  const seenSession = (session: SessionRecord) =>
    !started || (SEEN_STOPPED_AT in session && session[SEEN_STOPPED_AT] === session.stopped_at)
  const seenBookmark = (bookmark: Bookmark) => !started || bookmark[SEEN] === true
  const epoch = state.sleep_started_at
  const done = afterConsolidation(state, {
    summary,
    now: input.now,
    clearsSession: seenSession,
    clearsBookmark: seenBookmark,
    changesAfter: epoch,
    // The boundary is the end of the sleep, not its start: the sleep agent's own work (its
    // sub-agent transcript lands in the session's folder) must not be booked as new debt
    // (dreamcontext issue #298).
    readUpTo: input.now.toISOString(),
  })
  const { sessions, bookmarks } = done.state
  return {
    ...done,
    state: {
      ...done.state,
      sessions: sessions.map(unmarked),
      bookmarks: bookmarks.map(unmarked),
      sleep_started_at: null,
    },
  }
}

/** A record without the marks `sleep start` put on it. */
function unmarked<T extends object>(record: T): T {
  if (!(SEEN_STOPPED_AT in record) && !(SEEN in record)) return record
  const { [SEEN_STOPPED_AT]: _stopped, [SEEN]: _seen, ...rest } = record as Record<string, unknown>
  return rest as T
}

/** What one consolidation read: each session as it was when read, and the bookmark ids. */
export interface ConsolidatedItems {
  /** A session is cleared only if it has not stopped again since (same `stopped_at`). */
  sessions: readonly { session_id: string; stopped_at: string | null }[]
  bookmarks: readonly string[]
}

/**
 * Ends a `sleep run`: clears exactly the sessions and bookmarks it consolidated, by id, never by
 * time. A session that stopped again while the run worked keeps its row (its new turns are not
 * in memory yet); a bookmark made meanwhile stays. `epoch` is when the run began reading:
 * transcripts are read from there next time, so a turn written during the run is not skipped.
 */
export function completeConsolidation(
  state: SleepState,
  input: { summary: string; now: Date; epoch: string; consolidated: ConsolidatedItems },
): { state: SleepState; history: SleepHistoryEntry } {
  const seen = new Map(input.consolidated.sessions.map((s) => [s.session_id, s.stopped_at]))
  const bookmarkIds = new Set(input.consolidated.bookmarks)
  return afterConsolidation(state, {
    summary: input.summary.trim() || 'Consolidated',
    now: input.now,
    clearsSession: (session) =>
      seen.has(session.session_id) && seen.get(session.session_id) === session.stopped_at,
    clearsBookmark: (bookmark) => bookmarkIds.has(bookmark.id),
    changesAfter: input.epoch,
    readUpTo: latest(state.last_consolidated_at, input.epoch),
  })
}

/**
 * The ledger after a consolidation that cleared what `clearsSession` and `clearsBookmark` pick,
 * and the history entry saying so. Spent reminders leave (seed 000, 2026-02-27,
 * docs/design/origins.md); dashboard changes after `changesAfter` stay (none when it is null);
 * transcripts of the cleared sessions count as read up to `readUpTo`.
 */
function afterConsolidation(
  state: SleepState,
  input: {
    summary: string
    now: Date
    clearsSession: (session: SessionRecord) => boolean
    clearsBookmark: (bookmark: Bookmark) => boolean
    changesAfter: string | null
    readUpTo: string
  },
): { state: SleepState; history: SleepHistoryEntry } {
  const processed = state.sessions.filter(input.clearsSession)
  const keptSessions = state.sessions.filter((session) => !input.clearsSession(session))
  const processedBookmarks = state.bookmarks.filter(input.clearsBookmark)
  const { changesAfter } = input
  const next: SleepState = {
    ...state,
    debt: sumOfScores(keptSessions),
    sessions: keptSessions,
    bookmarks: state.bookmarks.filter((bookmark) => !input.clearsBookmark(bookmark)),
    dashboard_changes:
      changesAfter === null
        ? []
        : state.dashboard_changes.filter((change) => timestampOf(change) > changesAfter),
    triggers: state.triggers.filter((trigger) => trigger.fired_count < trigger.max_fires),
    last_sleep: utcDate(input.now),
    last_sleep_summary: input.summary,
    ...boundaryAfter(state, input.readUpTo, processed),
    sessions_since_last_sleep: keptSessions.filter((session) => !isManualSession(session)).length,
  }
  const history = historyEntry(state, next, {
    now: input.now,
    sessions: processed,
    bookmarks: processedBookmarks,
  })
  return { state: next, history }
}

/** The history record of a consolidation that turned `before` into `after`, clearing these. */
function historyEntry(
  before: SleepState,
  after: SleepState,
  cleared: { now: Date; sessions: readonly SessionRecord[]; bookmarks: readonly Bookmark[] },
): SleepHistoryEntry {
  return {
    date: utcDate(cleared.now),
    consolidated_at: cleared.now.toISOString(),
    summary: after.last_sleep_summary ?? '',
    debt_before: before.debt,
    debt_after: after.debt,
    sessions_processed: cleared.sessions.length,
    bookmarks_processed: cleared.bookmarks.length,
    session_ids: cleared.sessions.map((session) => session.session_id),
    bookmark_ids: cleared.bookmarks.map((bookmark) => bookmark.id),
  }
}

/**
 * Where a session's transcript is still unread by any consolidation: later lines are new work.
 * Only the sessions the last consolidation cleared were read up to `last_consolidated_at`; any
 * other session (one whose Stop landed while a sleep ran, one that sleep kept, a new one) is read
 * from the boundary before it, so a turn that began before a sleep and ended after it is counted
 * and consolidated. Ledgers from before this rule know only `last_consolidated_at`.
 */
export function transcriptReadFrom(state: SleepState, sessionId: string): string | null {
  const known = state.previous_consolidated_at !== null || state.last_consolidated_ids.length > 0
  if (!known || state.last_consolidated_ids.includes(sessionId)) return state.last_consolidated_at
  return state.previous_consolidated_at
}

/** The read boundaries after a consolidation that read up to `at` and cleared `processed`. */
function boundaryAfter(
  state: SleepState,
  at: string,
  processed: readonly SessionRecord[],
): Pick<SleepState, 'last_consolidated_at' | 'previous_consolidated_at' | 'last_consolidated_ids'> {
  return {
    last_consolidated_at: at,
    previous_consolidated_at: state.last_consolidated_at,
    last_consolidated_ids: processed.map((session) => session.session_id),
  }
}

/** The later of two ISO instants (null counts as the earliest). */
function latest(current: string | null, candidate: string): string {
  return current !== null && current > candidate ? current : candidate
}

function timestampOf(change: unknown): string {
  if (typeof change === 'object' && change !== null && 'timestamp' in change) {
    const value = (change as { timestamp: unknown }).timestamp
    if (typeof value === 'string') return value
  }
  return ''
}

/** Parses a salience given as text or number; anything but 1, 2 or 3 is a USAGE error. */
export function parseSalience(value: unknown): Salience {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (number === 1 || number === 2 || number === 3) return number
  throw new SomnusError(
    'USAGE',
    `Salience must be 1, 2 or 3 (★ notable, ★★ should consolidate, ★★★ must consolidate), got ${String(value)}. Example: somnus bookmark add -s 3 "Never store tokens in localStorage"`,
  )
}

/** Tags a moment for the next sleep; newest first, unlinked until the Stop hook links it. */
export function addBookmark(
  state: SleepState,
  input: { id: string; message: string; salience: number; now: Date; taskSlug?: string | null },
): SleepState {
  const message = input.message.trim()
  if (message === '') {
    throw new SomnusError(
      'USAGE',
      'A bookmark needs a message: say what to remember. Example: somnus bookmark add "Chose SQLite over Postgres for the cache"',
    )
  }
  const bookmark: Bookmark = {
    id: input.id,
    message,
    salience: parseSalience(input.salience),
    created_at: input.now.toISOString(),
    session_id: null,
    task_slug: input.taskSlug ?? null,
  }
  return { ...state, bookmarks: [bookmark, ...state.bookmarks] }
}

/** Drops every bookmark (the user decided they are handled). */
export function clearBookmarks(state: SleepState): SleepState {
  return { ...state, bookmarks: [] }
}

/** Adds a prospective reminder at the end of the list, unfired. */
export function addTrigger(
  state: SleepState,
  input: {
    id: string
    when: string
    remind: string
    maxFires?: number
    source?: string | null
    now: Date
  },
): SleepState {
  const when = input.when.trim()
  const remind = input.remind.trim()
  if (when === '' || remind === '') {
    throw new SomnusError(
      'USAGE',
      'A trigger needs both a pattern and a reminder. Example: somnus trigger add "auth,login" "JWT tokens expire after 24h"',
    )
  }
  const maxFires = input.maxFires ?? DEFAULT_MAX_FIRES
  if (!Number.isInteger(maxFires) || maxFires < 1) {
    throw new SomnusError(
      'USAGE',
      `--max-fires must be a whole number of at least 1, got ${String(maxFires)}. Example: somnus trigger add auth "Refresh tokens first" -m 5`,
    )
  }
  const trigger: Trigger = {
    id: input.id,
    when,
    remind,
    source: input.source ?? null,
    created_at: input.now.toISOString(),
    fired_count: 0,
    max_fires: maxFires,
  }
  return { ...state, triggers: [...state.triggers, trigger] }
}

/** The state without trigger `id`; an unknown id is a NOT_FOUND error naming the list command. */
export function removeTrigger(state: SleepState, id: string): SleepState {
  if (!state.triggers.some((trigger) => trigger.id === id)) {
    throw new SomnusError(
      'NOT_FOUND',
      `No trigger with id "${id}". Run \`somnus trigger list\` to see the ids.`,
    )
  }
  return { ...state, triggers: state.triggers.filter((trigger) => trigger.id !== id) }
}

/** Triggers that may still fire (fired fewer times than their limit). */
export function activeTriggers(state: SleepState): Trigger[] {
  return state.triggers.filter((trigger) => trigger.fired_count < trigger.max_fires)
}

/** Records a read of knowledge file `slug`: today's date and one more access. */
export function touchKnowledge(state: SleepState, slug: string, now: Date): SleepState {
  const previous = state.knowledge_access[slug]
  return {
    ...state,
    knowledge_access: {
      ...state.knowledge_access,
      [slug]: { ...previous, last_accessed: utcDate(now), count: (previous?.count ?? 0) + 1 },
    },
  }
}
