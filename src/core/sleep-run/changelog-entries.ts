/** Changelog lines for the sessions a sleep consolidates: one per session that changed files. */
import { redactSecrets } from '../redact-secrets.ts'
import type { SessionRecord } from '../sleep-state.ts'

/** One entry of `core/CHANGELOG.json` (newest first), with the session it came from. */
export interface ChangelogEntry {
  date: string
  type: 'feat' | 'fix' | 'refactor' | 'docs' | 'chore'
  message: string
  sources: string[]
}

const MAX_MESSAGE_CHARS = 160

/**
 * Entries for sessions with file changes and a closing message, skipping sessions already cited
 * by an existing entry (so a repeated run adds nothing). The message is the first sentence of
 * Claude's own closing summary, which seed 000 calls the most valuable piece of data.
 */
export function changelogEntries(
  sessions: readonly SessionRecord[],
  existing: readonly unknown[],
): ChangelogEntry[] {
  const cited = new Set(
    existing.flatMap((entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      Array.isArray((entry as { sources?: unknown }).sources)
        ? ((entry as { sources: unknown[] }).sources.filter(
            (id) => typeof id === 'string',
          ) as string[])
        : [],
    ),
  )
  return sessions
    .filter((session) => (session.change_count ?? 0) > 0 && session.last_assistant_message)
    .filter((session) => !cited.has(session.session_id))
    .map((session) => {
      // Ledgers written before redaction existed may still hold a secret in a closing message.
      const message = firstSentence(redactSecrets(session.last_assistant_message ?? ''))
      return {
        date: (session.stopped_at ?? '').slice(0, 10),
        type: changeType(message),
        message,
        sources: [session.session_id],
      }
    })
}

function firstSentence(text: string): string {
  const flat = text
    .replace(/[#*`>_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const end = flat.search(/[.!?](\s|$)/)
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat
  return sentence.length <= MAX_MESSAGE_CHARS
    ? sentence
    : `${sentence.slice(0, MAX_MESSAGE_CHARS - 1).replace(/\s+\S*$/, '')}…`
}

function changeType(message: string): ChangelogEntry['type'] {
  if (/\b(fix|fixed|fixes|bug|repair)/i.test(message)) return 'fix'
  if (/\brefactor/i.test(message)) return 'refactor'
  if (/\b(docs?|readme|documentation)\b/i.test(message)) return 'docs'
  if (/\b(test|tests|ci|chore|bump|dependenc)/i.test(message)) return 'chore'
  return 'feat'
}
