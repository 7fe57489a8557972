/**
 * Which transcripts beside the starting session's were never booked: their Stop was killed before
 * it could append to the inbox (Claude Code kills a Stop at 5 s; under load Node may not even have
 * started). Seed 000: SessionStart catches them up from their transcripts.
 */
import type { SleepState } from './sleep-state.ts'

/** One session transcript in a project folder. */
export interface SiblingTranscript {
  sessionId: string
  path: string
  /** Last modified, in milliseconds since the epoch. */
  modifiedMs: number
}

/** At most this many missed sessions are read per SessionStart (newest first), so it stays fast. */
export const MISSED_SESSIONS_PER_START = 5

/** Where and since when to look. */
export interface MissedSessionsQuery {
  /** The starting session: its own Stop books it. */
  startedSessionId: string
  /**
   * When the brain was made (ms): a transcript last written before it predates Somnus here, it was
   * not missed.
   */
  brainCreatedMs: number
  /** Default MISSED_SESSIONS_PER_START. */
  limit?: number
}

/**
 * The transcripts the ledger knows nothing of (no booked, pending or merged row for their session),
 * written since the brain was made and since the last consolidation (older work is slept on or
 * predates the brain), the starting session left out; newest first, at most `limit`.
 */
export function missedSessions(
  state: SleepState,
  siblings: readonly SiblingTranscript[],
  query: MissedSessionsQuery,
): SiblingTranscript[] {
  const known = new Set(state.sessions.map((session) => session.session_id))
  const consolidatedMs =
    state.last_consolidated_at === null ? 0 : Date.parse(state.last_consolidated_at) || 0
  const after = Math.max(query.brainCreatedMs, consolidatedMs)
  return siblings
    .filter(
      (sibling) =>
        sibling.sessionId !== query.startedSessionId &&
        !known.has(sibling.sessionId) &&
        // Not before: a file system's clock ticks coarsely, a brain and a transcript may share one.
        sibling.modifiedMs >= after,
    )
    .sort((a, b) => b.modifiedMs - a.modifiedMs)
    .slice(0, query.limit ?? MISSED_SESSIONS_PER_START)
}
