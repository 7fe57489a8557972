/**
 * Argument parsing and plain-text rendering shared by the `sleep`, `bookmark` and `trigger`
 * commands. Output is plain text without colour: agents read it more often than people do.
 */

import {
  type Bookmark,
  plural,
  type SessionRecord,
  type SleepHistoryEntry,
  type Trigger,
} from '../../../brain/brain-values.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { ScoringPolicy, SleepLevel } from '../../../engine/core/scoring/scoring-policy.ts'

/** Characters of a session's last message shown by `sleep status` (agentcontext's preview). */
export const MESSAGE_PREVIEW_CHARS = 120

/** Parses a whole number argument; anything else is a USAGE error naming `what` and an example. */
export function parseWholeNumber(text: string, what: string, example: string): number {
  const trimmed = text.trim()
  const value = /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN
  if (!Number.isSafeInteger(value)) {
    throw new SomnusError(
      'USAGE',
      `${what} must be a whole number, got "${text}". Example: ${example}`,
    )
  }
  return value
}

/** The debt range of `level` under `policy`, e.g. "4-6" or "10+". */
export function levelRange(policy: Pick<ScoringPolicy, 'thresholds'>, level: SleepLevel): string {
  const { drowsy, sleepy, mustSleep } = policy.thresholds
  if (level === 'Alert') return `0-${drowsy - 1}`
  if (level === 'Drowsy') return `${drowsy}-${sleepy - 1}`
  if (level === 'Sleepy') return `${sleepy}-${mustSleep - 1}`
  return `${mustSleep}+`
}

/** One line per session: `(+2) 7 changes, 35 tools — Implemented JWT middleware...`. */
export function sessionLine(session: SessionRecord): string {
  const score = session.score === null ? '(pending)' : `(+${session.score})`
  const counts =
    session.change_count === null && session.tool_count === null
      ? session.session_id.startsWith('manual-')
        ? 'manual entry'
        : 'not analysed yet'
      : `${plural(session.change_count ?? 0, 'change')}, ${plural(session.tool_count ?? 0, 'tool')}`
  return `${score} ${counts} — ${preview(session.last_assistant_message)}`
}

/** The first 120 characters of a message on one line, with "..." when cut. */
export function preview(message: string | null): string {
  if (message === null || message.trim() === '') return '(no summary)'
  const flat = message.replace(/\s+/g, ' ').trim()
  return flat.length > MESSAGE_PREVIEW_CHARS ? `${flat.slice(0, MESSAGE_PREVIEW_CHARS)}...` : flat
}

/** `*`, `**` or `***` for salience 1, 2 or 3. */
export function stars(salience: number): string {
  return '*'.repeat(salience)
}

/** `*** message  [bm_1, task: auth, 2026-02-27]`. */
export function bookmarkLine(bookmark: Bookmark): string {
  const details = [bookmark.id, ...(bookmark.task_slug ? [`task: ${bookmark.task_slug}`] : [])]
  details.push(bookmark.created_at.slice(0, 10))
  return `${stars(bookmark.salience).padEnd(3)} ${bookmark.message}  [${details.join(', ')}]`
}

/** `trg_1  when "auth" → JWT tokens expire  (fired 1/3, source: PR 9)`. */
export function triggerLine(trigger: Trigger): string {
  const details = [`fired ${trigger.fired_count}/${trigger.max_fires}`]
  if (trigger.source) details.push(`source: ${trigger.source}`)
  return `${trigger.id}  when "${trigger.when}" → ${trigger.remind}  (${details.join(', ')})`
}

/** `2026-02-27  debt 6 → 0  2 sessions, 3 bookmarks  Consolidated ...`. */
export function historyLine(entry: SleepHistoryEntry): string {
  const sessions = `${entry.sessions_processed} session${entry.sessions_processed === 1 ? '' : 's'}`
  const bookmarks = `${entry.bookmarks_processed} bookmark${entry.bookmarks_processed === 1 ? '' : 's'}`
  return `${entry.date}  debt ${entry.debt_before} → ${entry.debt_after}  ${sessions}, ${bookmarks}  ${entry.summary}`
}
