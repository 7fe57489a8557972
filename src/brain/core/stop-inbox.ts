/**
 * The Stop inbox: every Stop hook first appends a pending booking of its session as one JSON
 * line, without the lock, so a Stop killed later (a busy machine, Claude Code's 5 s timeout) has
 * not lost its turn; one that cannot take the ledger lock before its deadline appends its scored
 * booking too. The next holder of the lock merges them. Pure: how a line reads and writes, and
 * how queued Stops join a ledger.
 *
 * Exactly once: each queued Stop carries an id, and the ledger keeps the ids of every queued Stop
 * still present in an inbox file (`inbox_merged_ids`), written in the same atomic ledger write as
 * the Stops themselves. A merge killed before that write merged nothing; one killed after it
 * finds the ids and skips them. Files are retired only after the write, so nothing is removed
 * before the ledger holds it.
 *
 * Untrusted: the inbox lives in the repository's `_agent_context/state/`, and a repository can
 * commit one (`git add -f`). Merged under an `UntrustedInbox` policy, a line books only a session
 * whose transcript passes the policy, and always as pending: its score is re-derived from that
 * transcript by the next SessionStart (finish-pending-sessions.ts), never taken from the line.
 */
import { isCount, isScore } from './ledger-counts.ts'
import { findSession, type TranscriptOutcome, upsertStoppedSession } from './session-ledger.ts'
import type { SleepState } from './sleep-state.ts'

/** A Stop booking waiting in the inbox: what `upsertStoppedSession` needs, as plain data. */
export interface QueuedStop {
  /** Unique per queued Stop: the ledger records it once merged. */
  id: string
  session_id: string
  transcript_path: string | null
  last_assistant_message: string | null
  outcome: TranscriptOutcome
  /** When the Stop ran (ISO 8601). */
  now: string
}

/**
 * The inbox line for `stop`, written in a single append: one JSON object between line feeds. The
 * leading one keeps the record whole even after a line a failed write left unfinished.
 */
export function inboxLine(stop: QueuedStop): string {
  return `\n${JSON.stringify(stop)}\n`
}

/** What an inbox file holds: its complete, valid lines, and how many lines were not. */
export interface InboxContent {
  stops: QueuedStop[]
  /** Lines that are not a queued Stop (damaged, or planted): skipped and reported. */
  rejected: number
}

/**
 * The queued Stops in an inbox file's text. A last line without its line feed is not counted:
 * it is the only place a write cut short (a full disk) can leave half a record.
 */
export function parseInbox(text: string): InboxContent {
  const stops: QueuedStop[] = []
  let rejected = 0
  const end = text.lastIndexOf('\n')
  if (end < 0) return { stops, rejected }
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue
    const stop = queuedStopOf(line)
    if (stop === null) rejected += 1
    else stops.push(stop)
  }
  return { stops, rejected }
}

/** How a merge treats lines that anyone able to write the repository may have written. */
export interface UntrustedInbox {
  /**
   * Whether the Stop names a transcript that may be booked (the session's own, where Claude Code
   * writes it); a Stop refused is marked merged without being applied.
   */
  admits(stop: QueuedStop): boolean
}

/**
 * `state` with every queued Stop not merged before applied, oldest first, and
 * `inbox_merged_ids` set to the ids of all of `present` (every Stop still in an inbox file): ids
 * of Stops whose file is gone are no longer needed. A queued Stop older than the session's last
 * recorded Stop is marked merged without being applied: the later Stop read more of the
 * transcript, and its score replaces the earlier one anyway. Of one instant, a pending booking is
 * applied before a scored one (a Stop queues both when it cannot take the lock), so the score
 * stands whatever order the inbox files were read in. With `untrusted`, only admitted Stops are
 * applied, each as a pending booking (UntrustedInbox). Returns `state` itself when nothing changes.
 */
export function mergeQueuedStops(
  state: SleepState,
  present: readonly QueuedStop[],
  untrusted?: UntrustedInbox,
): SleepState {
  const before = state.inbox_merged_ids ?? []
  const merged = new Set(before)
  const waiting = present
    .filter((stop) => !merged.has(stop.id))
    .sort((a, b) => a.now.localeCompare(b.now) || pendingFirst(a) - pendingFirst(b))
  const ids = [...new Set(present.map((stop) => stop.id))]
  if (waiting.length === 0 && sameIds(ids, before)) return state
  let next = state
  const applied = new Set<string>()
  for (const stop of waiting) {
    if (applied.has(stop.id)) continue
    applied.add(stop.id)
    const stoppedAt = findSession(next, stop.session_id)?.stopped_at
    if (stoppedAt && stoppedAt > stop.now) continue
    if (untrusted !== undefined && !untrusted.admits(stop)) continue
    next = upsertStoppedSession(next, {
      session_id: stop.session_id,
      transcript_path: stop.transcript_path,
      last_assistant_message: stop.last_assistant_message,
      outcome: untrusted === undefined ? stop.outcome : { kind: 'pending' },
      now: new Date(stop.now),
    })
  }
  const { inbox_merged_ids: _old, ...rest } = next
  return ids.length === 0 ? rest : { ...rest, inbox_merged_ids: ids }
}

/** 0 for a pending booking, 1 for one that read its transcript: the sort key of a tie. */
function pendingFirst(stop: QueuedStop): number {
  return stop.outcome.kind === 'pending' ? 0 : 1
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index])
}

/** The line as a queued Stop, or null when any field is missing or of the wrong kind. */
function queuedStopOf(line: string): QueuedStop | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const record = value as Record<string, unknown>
  const { id, session_id, transcript_path, last_assistant_message, now } = record
  if (typeof id !== 'string' || id === '' || typeof session_id !== 'string' || session_id === '')
    return null
  if (!isNullableString(transcript_path) || !isNullableString(last_assistant_message)) return null
  if (typeof now !== 'string' || Number.isNaN(Date.parse(now))) return null
  const outcome = outcomeOf(record.outcome)
  if (outcome === null) return null
  return {
    id,
    session_id,
    transcript_path,
    last_assistant_message,
    outcome,
    now: new Date(now).toISOString(),
  }
}

function outcomeOf(value: unknown): TranscriptOutcome | null {
  if (typeof value !== 'object' || value === null) return null
  const outcome = value as Record<string, unknown>
  if (outcome.kind === 'pending') return { kind: 'pending' }
  if (outcome.kind === 'skipped')
    return typeof outcome.note === 'string' ? { kind: 'skipped', note: outcome.note } : null
  if (outcome.kind !== 'scored') return null
  const { change_count, tool_count, score, task_slugs } = outcome
  if (!isCount(change_count) || !isCount(tool_count) || !isScore(score)) return null
  if (!Array.isArray(task_slugs) || !task_slugs.every((slug) => typeof slug === 'string'))
    return null
  return { kind: 'scored', change_count, tool_count, score, task_slugs: [...task_slugs] }
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === 'string'
}
