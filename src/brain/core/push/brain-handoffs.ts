/**
 * What a project's brain sends to the consolidation service (`somnus handoffs push`): one handoff
 * per session. A session digest (what the session did, decided, fixed and left open; kept once a
 * sleep has run) makes the richest handoff; a session known only from the sleep ledger sends
 * Claude's closing message; each past consolidation sends its summary. Ids are derived from the
 * session or consolidation, so pushing twice sends nothing new.
 */
import type { HandoffInput } from '../../../service/core/handoff.ts'
import type { SessionRecord, SleepHistoryEntry } from '../sleep-state.ts'
import { handoffFromDigestDocument } from './digest-document-handoff.ts'

/** The id a session's handoff gets (ids allow letters, digits and `. : @ / # _ -`). */
export function sessionHandoffId(sessionId: string): string {
  return `cc-${sessionId.replace(/[^\w.:@/#-]/g, '_')}`.slice(0, 200)
}

/** `{ created_at }` when `value` is a date, else nothing (a damaged date is left to the server's now). */
function createdAt(value: string | null): { created_at?: string } {
  if (value === null) return {}
  const time = Date.parse(value)
  return Number.isNaN(time) ? {} : { created_at: new Date(time).toISOString() }
}

/** A ledger session as a handoff: Claude's closing message is what the session experienced. */
export function handoffFromSession(session: SessionRecord, tags: readonly string[]): HandoffInput {
  const counts = [
    session.tool_count === null ? null : `${session.tool_count} tool calls`,
    session.change_count === null ? null : `${session.change_count} file changes`,
  ].filter((part) => part !== null)
  return {
    handoff_id: sessionHandoffId(session.session_id),
    session_id: session.session_id,
    with_whom: 'claude-code',
    experienced: session.last_assistant_message,
    noticed: counts.length === 0 ? null : `The session made ${counts.join(' and ')}.`,
    remember: session.task_slugs.length === 0 ? null : `Tasks: ${session.task_slugs.join(', ')}`,
    tags: [...tags],
    ...createdAt(session.stopped_at),
    sources: [session.session_id],
  }
}

/** A past consolidation as a handoff: its summary, citing the sessions it consolidated. */
export function handoffFromSleep(entry: SleepHistoryEntry, tags: readonly string[]): HandoffInput {
  const when = entry.consolidated_at ?? entry.date
  return {
    handoff_id: `sleep-${when.replace(/[^\w.:@/#-]/g, '_')}`.slice(0, 200),
    session_id: `sleep-${when}`,
    with_whom: 'somnus',
    story: entry.summary,
    noticed: `Consolidated ${entry.sessions_processed} session(s) and ${entry.bookmarks_processed} bookmark(s); sleep debt ${entry.debt_before} → ${entry.debt_after}.`,
    tags: [...tags, 'sleep'],
    ...createdAt(when),
    sources: [...entry.session_ids, ...entry.bookmark_ids],
  }
}

/** Everything a brain knows, as handoffs: a session's digest wins over its ledger entry. */
export function brainHandoffs(brain: {
  /** The digest documents' texts (`knowledge/sessions/*.md`). */
  digests: readonly string[]
  sessions: readonly SessionRecord[]
  history: readonly SleepHistoryEntry[]
  tags: readonly string[]
}): HandoffInput[] {
  const digests = brain.digests.flatMap((document) => {
    const handoff = handoffFromDigestDocument(document, brain.tags, sessionHandoffId)
    return handoff === null ? [] : [handoff]
  })
  const digested = new Set(digests.map((handoff) => handoff.session_id))
  return [
    ...digests,
    ...brain.sessions
      .filter((session) => !digested.has(session.session_id))
      .map((session) => handoffFromSession(session, brain.tags)),
    ...brain.history.map((entry) => handoffFromSleep(entry, brain.tags)),
  ]
}
