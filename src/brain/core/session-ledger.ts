/**
 * Pure ledger changes the Claude Code hooks make: record a stopped session, finish pending scores,
 * log a compaction. Each takes a state and returns a new one, so a store runs it under its lock.
 *
 * Rules (seed 000, agentcontext `hook.ts`, dreamcontext's later fixes; research/seed-systems.md
 * 1.4 and 1.10): Stop fires once per turn, so a session is upserted by id and its old score is
 * taken off the debt before the new one is added. A transcript that is not on disk yet leaves the
 * score `null` (pending), never 0; SessionStart finishes it later, or books 0 after seven days.
 */
import { capClosingMessage, MAX_CLOSING_MESSAGE_CHARS } from './closing-message.ts'
import type { SessionRecord, SleepState } from './sleep-state.ts'

/** Pending sessions whose transcript never became readable are booked at 0 after this long. */
export const PENDING_GIVE_UP_MS = 7 * 24 * 60 * 60 * 1000

/** The compaction log keeps this many records, newest first (agentcontext's cap). */
export const COMPACTION_LOG_CAP = 20

/** Manual `sleep add` entries have ids with this prefix and are never analysed. */
export const MANUAL_SESSION_PREFIX = 'manual-'

/** What one look at a session's transcript found. */
export type TranscriptOutcome =
  /** Read and scored. */
  | {
      kind: 'scored'
      change_count: number
      tool_count: number
      score: number
      task_slugs: string[]
    }
  /**
   * Deliberately not read (over the size cap): booked at 0 with the reason, as seed 000 does
   * (docs/design/origins.md).
   */
  | { kind: 'skipped'; note: string }
  /** Not on disk, not flushed yet, or unreadable this time: the score stays pending. */
  | { kind: 'pending' }

/** What the Stop hook knows about the turn that just ended. */
export interface StoppedSession {
  session_id: string
  transcript_path: string | null
  /** Claude's own summary of the turn; null keeps the one recorded before. */
  last_assistant_message: string | null
  outcome: TranscriptOutcome
  now: Date
}

/** The session `id`, or undefined. */
export function findSession(state: SleepState, id: string): SessionRecord | undefined {
  return state.sessions.find((session) => session.session_id === id)
}

/** True for a `sleep add` entry, which has no transcript to analyse. */
export function isManualSession(session: Pick<SessionRecord, 'session_id'>): boolean {
  return session.session_id.startsWith(MANUAL_SESSION_PREFIX)
}

/**
 * Records the end of a turn. A new session goes on top (LIFO) and counts once towards the rhythm;
 * a known one is updated in place with its old score taken off the debt first. Every bookmark
 * not yet linked to a session is linked to this one: it was made during this session.
 */
export function upsertStoppedSession(state: SleepState, stopped: StoppedSession): SleepState {
  const existing = findSession(state, stopped.session_id)
  const record = withOutcome(
    {
      ...(existing ?? emptySession(stopped.session_id)),
      transcript_path: stopped.transcript_path ?? existing?.transcript_path ?? null,
      stopped_at: stopped.now.toISOString(),
      last_assistant_message: cappedOrNull(
        stopped.last_assistant_message ?? existing?.last_assistant_message ?? null,
      ),
    },
    stopped.outcome,
  )
  const bookmarks = state.bookmarks.map((bookmark) =>
    bookmark.session_id === null ? { ...bookmark, session_id: stopped.session_id } : bookmark,
  )
  // A bookmark made for a task ties this session to that task too (agentcontext's task_slugs).
  const bookmarkSlugs = bookmarks.flatMap((bookmark) =>
    bookmark.session_id === stopped.session_id && bookmark.task_slug ? [bookmark.task_slug] : [],
  )
  record.task_slugs = union(record.task_slugs, bookmarkSlugs)
  const debt = state.debt - (existing?.score ?? 0) + (record.score ?? 0)
  const sessions = withCappedMessages(
    existing
      ? state.sessions.map((session) => (session === existing ? record : session))
      : [record, ...state.sessions],
  )
  return {
    ...state,
    debt,
    sessions,
    sessions_since_last_sleep: state.sessions_since_last_sleep + (existing ? 0 : 1),
    bookmarks,
  }
}

/**
 * Records how a session ended (SessionEnd). A known session gets `end_reason` and, when its
 * transcript was read again, the fresh score (upserted like Stop). An unknown session is added
 * only when its transcript could be read: a session that never reached a Stop and left no
 * transcript did no work, and a pending row for it would only count towards the rhythm.
 */
export function recordSessionEnd(
  state: SleepState,
  ended: StoppedSession & { reason: string | null },
): SleepState {
  const existing = findSession(state, ended.session_id)
  if (!existing && ended.outcome.kind === 'pending') return state
  let next = state
  if (!existing) {
    next = upsertStoppedSession(state, ended)
  } else if (ended.outcome.kind !== 'pending') {
    const refreshed = withOutcome(
      { ...existing, transcript_path: ended.transcript_path ?? existing.transcript_path },
      ended.outcome,
    )
    next = replaceSession(state, existing, refreshed)
  }
  const session = findSession(next, ended.session_id)
  if (!session) return next
  const finished = replaceSession(next, session, {
    ...session,
    end_reason: ended.reason ?? 'unknown',
    ended_at: ended.now.toISOString(),
  })
  return { ...finished, sessions: withCappedMessages(finished.sessions) }
}

/** Sessions the SessionStart catch-up should look at: pending, not manual, with a transcript. */
export function pendingSessions(state: SleepState): SessionRecord[] {
  return state.sessions.filter((session) => session.score === null && !isManualSession(session))
}

/**
 * Finishes pending scores with what SessionStart could read (`outcomes` by session id). A session
 * still unreadable stays pending, unless it has no transcript path (it never will be readable) or
 * stopped more than seven days ago: then it is booked at 0 and marked `catchup_finalized`.
 * Sessions scored meanwhile by a concurrent Stop are left alone.
 */
export function finishPendingSessions(
  state: SleepState,
  outcomes: ReadonlyMap<string, TranscriptOutcome>,
  now: Date,
): { state: SleepState; finished: string[] } {
  const finished: string[] = []
  let debt = state.debt
  const sessions = state.sessions.map((session) => {
    if (session.score !== null || isManualSession(session)) return session
    const outcome = outcomes.get(session.session_id) ?? { kind: 'pending' }
    let record: SessionRecord
    if (outcome.kind !== 'pending') {
      record = withOutcome(session, outcome)
    } else if (session.transcript_path === null) {
      record = { ...session, score: 0, catchup_finalized: true, note: 'no transcript path' }
    } else if (isOlderThan(session.stopped_at, now, PENDING_GIVE_UP_MS)) {
      record = {
        ...session,
        score: 0,
        catchup_finalized: true,
        note: 'transcript never became readable within 7 days',
      }
    } else {
      return session
    }
    finished.push(session.session_id)
    debt += record.score ?? 0
    return record
  })
  if (finished.length === 0) return { state, finished }
  return { state: { ...state, debt, sessions }, finished }
}

/** Puts a compaction on top of the log, keeping the newest twenty. */
export function recordCompaction(
  state: SleepState,
  input: { trigger: string | null; now: Date },
): SleepState {
  const entry = {
    timestamp: input.now.toISOString(),
    trigger: input.trigger ?? 'unknown',
    debt_at_compaction: state.debt,
    sessions_count: state.sessions.length,
    bookmarks_count: state.bookmarks.length,
  }
  return { ...state, compaction_log: [entry, ...state.compaction_log].slice(0, COMPACTION_LOG_CAP) }
}

/** Adds one to the `fired_count` of each trigger the snapshot surfaced. */
export function countTriggerFires(state: SleepState, firedIds: readonly string[]): SleepState {
  if (firedIds.length === 0) return state
  const fired = new Set(firedIds)
  return {
    ...state,
    triggers: state.triggers.map((trigger) =>
      fired.has(trigger.id) ? { ...trigger, fired_count: trigger.fired_count + 1 } : trigger,
    ),
  }
}

function cappedOrNull(message: string | null): string | null {
  return message === null ? null : capClosingMessage(message)
}

/**
 * The sessions with every closing message capped, the same array when none is over: an old
 * ledger with a giant message is back to normal after one write, at the cost of a length check.
 */
function withCappedMessages(sessions: SessionRecord[]): SessionRecord[] {
  if (!sessions.some(isOversized)) return sessions
  return sessions.map((session) =>
    isOversized(session)
      ? { ...session, last_assistant_message: cappedOrNull(session.last_assistant_message) }
      : session,
  )
}

function isOversized(session: SessionRecord): boolean {
  return (session.last_assistant_message?.length ?? 0) > MAX_CLOSING_MESSAGE_CHARS
}

function emptySession(sessionId: string): SessionRecord {
  return {
    session_id: sessionId,
    transcript_path: null,
    stopped_at: null,
    last_assistant_message: null,
    change_count: null,
    tool_count: null,
    score: null,
    task_slugs: [],
  }
}

function withOutcome(session: SessionRecord, outcome: TranscriptOutcome): SessionRecord {
  // Counts stay null (unknown) rather than 0 while pending or skipped: 0 would be a measurement.
  const { note: _oldNote, ...rest } = session
  if (outcome.kind === 'pending') {
    return { ...rest, change_count: null, tool_count: null, score: null }
  }
  if (outcome.kind === 'skipped') {
    return { ...rest, change_count: null, tool_count: null, score: 0, note: outcome.note }
  }
  return {
    ...rest,
    change_count: outcome.change_count,
    tool_count: outcome.tool_count,
    score: outcome.score,
    task_slugs: union(session.task_slugs, outcome.task_slugs),
  }
}

function replaceSession(state: SleepState, old: SessionRecord, record: SessionRecord): SleepState {
  return {
    ...state,
    debt: state.debt - (old.score ?? 0) + (record.score ?? 0),
    sessions: state.sessions.map((session) => (session === old ? record : session)),
  }
}

function isOlderThan(iso: string | null, now: Date, ageMs: number): boolean {
  if (iso === null) return true
  const time = Date.parse(iso)
  return Number.isNaN(time) || now.getTime() - time > ageMs
}

function union(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second])]
}
