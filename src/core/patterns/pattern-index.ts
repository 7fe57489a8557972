/**
 * Read-before-act (seed 002 item 1): the SessionStart context gets the titles of the most recent
 * active patterns, a few lines, never their bodies, so patterns are seen before they graduate to
 * skills without costing the context they were kept out of.
 */
import { clip, inlineText } from '../markdown-text.ts'
import type { PatternEntry } from './pattern-entry.ts'

/** The index section, or '' when there is nothing to show or `limit` is 0. */
export function renderPatternIndex(entries: readonly PatternEntry[], limit: number): string {
  const recent = entries
    .filter((entry) => entry.status === 'active')
    .sort((left, right) => (left.date === right.date ? 0 : left.date < right.date ? 1 : -1))
    .slice(0, limit)
  if (recent.length === 0) return ''
  return [
    '## Recent patterns',
    'Lessons from earlier sessions (titles only; `somnus patterns show <domain>` prints one in full). Check them before similar work:',
    ...recent.map(
      (entry) => `- ${entry.date} ${entry.domain}: ${clip(inlineText(entry.title), 110)}`,
    ),
  ].join('\n')
}
