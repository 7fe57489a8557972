/**
 * Read-before-act (seed 002 item 1, docs/design/origins.md): the SessionStart context gets the
 * titles of a few active patterns, never their bodies, so patterns are seen before they graduate to
 * skills without costing the context they were kept out of. Which few: the newest lessons and the
 * most reused (one lesson told by several sessions is one line, with its count), spread across
 * domains, so one busy domain, or the alphabetically first, cannot fill the list.
 */
import { clip, inlineText } from '../../engine/core/markdown-text.ts'
import type { PatternEntry } from './pattern-entry.ts'

/** One lesson as the index shows it: its newest entry, and how many sessions told it. */
interface IndexedLesson {
  entry: PatternEntry
  sessions: number
}

/** The index section, or '' when there is nothing to show or `limit` is 0. */
export function renderPatternIndex(entries: readonly PatternEntry[], limit: number): string {
  if (limit <= 0) return ''
  const chosen = pickLessons(lessonsOf(entries), limit)
  if (chosen.length === 0) return ''
  return [
    '## Recent patterns',
    'Lessons from earlier sessions (titles only; `somnus patterns show <domain>` prints one in full). Check them before similar work:',
    ...chosen.map(
      ({ entry, sessions }) =>
        `- ${entry.date} ${entry.domain}: ${clip(inlineText(entry.title), 110)}${sessions > 1 ? ` (${sessions} sessions)` : ''}`,
    ),
  ].join('\n')
}

/** The active entries as lessons: entries whose titles differ only in names and ids are one. */
function lessonsOf(entries: readonly PatternEntry[]): IndexedLesson[] {
  const byKey = new Map<string, { newest: PatternEntry; sessions: Set<string> }>()
  for (const entry of entries) {
    if (entry.status !== 'active') continue
    const key = `${entry.domain}\n${lessonKey(entry.title)}`
    const known = byKey.get(key)
    if (known === undefined) {
      byKey.set(key, { newest: entry, sessions: new Set([entry.sources[0] ?? entry.id]) })
      continue
    }
    known.sessions.add(entry.sources[0] ?? entry.id)
    if (entry.date > known.newest.date) known.newest = entry
  }
  return [...byKey.values()].map(({ newest, sessions }) => ({
    entry: newest,
    sessions: sessions.size,
  }))
}

/** A title with its names and ids left out (`spotter-gqc`, `a1b2c3d`, `lib/app.ex`): the lesson itself. */
function lessonKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/\b[0-9a-f]{7,}\b/g, '#')
    .replace(/[\w.]*[a-z][\w.]*[-_/][\w./-]*/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * `limit` lessons: the most reused one (when any was told twice) and the newest, one per domain
 * first, then the rest by date and reuse; shown newest first.
 */
function pickLessons(lessons: IndexedLesson[], limit: number): IndexedLesson[] {
  const ranked = [...lessons].sort(
    (left, right) =>
      (left.entry.date === right.entry.date ? 0 : left.entry.date < right.entry.date ? 1 : -1) ||
      right.sessions - left.sessions,
  )
  const chosen: IndexedLesson[] = []
  const reused = [...lessons].sort((left, right) => right.sessions - left.sessions)[0]
  if (reused !== undefined && reused.sessions > 1) chosen.push(reused)
  const domains = new Set(chosen.map((lesson) => lesson.entry.domain))
  for (const lesson of ranked) {
    if (chosen.length >= limit) break
    if (chosen.includes(lesson) || domains.has(lesson.entry.domain)) continue
    chosen.push(lesson)
    domains.add(lesson.entry.domain)
  }
  for (const lesson of ranked) {
    if (chosen.length >= limit) break
    if (!chosen.includes(lesson)) chosen.push(lesson)
  }
  return chosen
    .slice(0, limit)
    .sort((left, right) =>
      left.entry.date === right.entry.date ? 0 : left.entry.date < right.entry.date ? 1 : -1,
    )
}
