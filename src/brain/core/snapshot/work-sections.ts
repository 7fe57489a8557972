/**
 * The snapshot's first half: who the agent is (soul, user, memory), what else the core holds,
 * and what it is doing now (tasks, bookmarks, reminders). Each builder renders all three forms.
 */
import type { CoreIndexEntry } from '../../../engine/core/core-files.ts'
import { fieldText, parseFrontmatter } from '../../../engine/core/frontmatter.ts'
import { clip } from '../../../engine/core/markdown-text.ts'
import { redactShown } from '../../../engine/core/redact-secrets.ts'
import type { Bookmark, Trigger } from '../sleep-state.ts'
import type { TaskSummary } from '../tasks.ts'
import { textComparator } from './compare-text.ts'
import { block, linesWithin, moreLine, nestHeadings, plural, stars } from './section-text.ts'
import type { SectionDraft } from './snapshot-types.ts'

/** Lines kept under each heading when a core file is summarised (LIFO files: the newest). */
const SUMMARY_LINES_PER_HEADING = 3

/** Soul, user or memory: the whole body, a per-heading digest, or a pointer to the file. */
export function coreFileSection(input: {
  name: string
  title: string
  path: string
  text: string | null
  importance: number
}): SectionDraft {
  const draft = { name: input.name, importance: input.importance, head: true }
  if (input.text === null) return { ...draft, full: '', summary: '', line: '' }
  const { data, body } = parseFrontmatter(input.text)
  const content = nestHeadings(readableLines(body)).join('\n')
  if (content === '') return { ...draft, full: '', summary: '', line: '' }
  const pointer = `_agent_context/${input.path}`
  const digest = digestLines(content)
  const summaryLines =
    digest.hidden === 0
      ? content.split('\n')
      : [...digest.lines, `… ${plural(digest.hidden, 'more line')}: read ${pointer}`]
  const about = fieldText(data, 'summary')
  return {
    ...draft,
    full: block(input.title, content.split('\n')),
    summary: block(input.title, summaryLines),
    line: `- ${input.name}: ${about ? `${clip(about, 120)} — ` : ''}read ${pointer}`,
  }
}

/**
 * The body as the snapshot shows it: without a leading `# Title` (the section heading names the
 * file already), without comments (`<!-- LIFO -->` lines, and the provenance at the end of each
 * entry, which stays on disk but is not worth its characters here), without template placeholders
 * (`- (Open bugs and their status)`) and the headings they leave empty, and without blank runs.
 */
function readableLines(body: string): string[] {
  const lines = body
    .trim()
    .split('\n')
    .filter((line) => !/^\s*<!--.*-->\s*$/.test(line))
    .map((line) => (line.includes('<!--') ? line.replace(INLINE_COMMENT, '').trimEnd() : line))
    .filter((line) => !PLACEHOLDER.test(line.trim()))
  if (/^#\s/.test(lines[0] ?? '')) lines.shift()
  const filled = lines.filter((_line, index) => !isEmptyHeading(lines, index))
  const kept = filled.filter(
    (line, index) => line.trim() !== '' || (filled[index - 1] ?? '').trim() !== '',
  )
  while (kept.length > 0 && kept[0]?.trim() === '') kept.shift()
  while (kept.length > 0 && kept.at(-1)?.trim() === '') kept.pop()
  return kept
}

/** An HTML comment inside a line, with the space before it. */
const INLINE_COMMENT = /\s*<!--[\s\S]*?-->/g
/** A template's placeholder bullet: wholly in parentheses, as `init` writes them. */
const PLACEHOLDER = /^[-*] _?\([^)]*\)_?$/

/** True for a heading with nothing under it before the next heading of its level or higher. */
function isEmptyHeading(lines: readonly string[], index: number): boolean {
  const level = /^(#{1,6})\s/.exec(lines[index] ?? '')?.[1]?.length
  if (level === undefined) return false
  for (const line of lines.slice(index + 1)) {
    const next = /^(#{1,6})\s/.exec(line)?.[1]?.length
    if (next !== undefined) return next <= level
    if (line.trim() !== '') return false
  }
  return true
}

/** Headings plus the first few content lines under each; fenced code is left out whole. */
function digestLines(content: string): { lines: string[]; hidden: number } {
  const lines: string[] = []
  let hidden = 0
  let keptUnderHeading = 0
  let inFence = false
  for (const line of content.split('\n')) {
    const trimmed = line.trim()
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) {
      inFence = !inFence
      hidden += 1
      continue
    }
    if (inFence) {
      hidden += 1
    } else if (/^#{1,6}\s/.test(trimmed)) {
      if (lines.length > 0 && lines[lines.length - 1] !== '') lines.push('')
      lines.push(line)
      keptUnderHeading = 0
    } else if (trimmed === '' || trimmed.startsWith('<!--')) {
      // Blank lines and comments carry nothing a digest needs.
    } else if (keptUnderHeading < SUMMARY_LINES_PER_HEADING) {
      lines.push(line)
      keptUnderHeading += 1
    } else {
      hidden += 1
    }
  }
  return { lines, hidden }
}

/** Core files 3 and up, by name and summary, for the agent to open when relevant. */
export function extendedCoreSection(
  entries: CoreIndexEntry[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Extended Core Files', importance: 7, head: false }
  if (entries.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const at = (entry: CoreIndexEntry) => `_agent_context/${entry.file}`
  return {
    ...draft,
    full: block(
      'Extended Core Files',
      linesWithin(
        entries,
        (entry) =>
          `- **${entry.name}** (${at(entry)})${entry.summary ? `: ${clip(entry.summary, 200)}` : ''}`,
        limit,
      ),
    ),
    summary: block(
      'Extended Core Files',
      entries.map((entry) => `- **${entry.name}** (${at(entry)})`),
    ),
    line: `- Extended Core Files: ${clip(entries.map((entry) => entry.file.replace(/^core\//, '')).join(', '), 160)} in _agent_context/core/`,
  }
}

/** Tasks summarised before "… N more". */
const SUMMARY_TASKS = 5

/** Active tasks, most recently updated first, with the first line of their `## Why`. */
export function activeTasksSection(
  activeTasks: TaskSummary[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Active Tasks', importance: 11, head: false }
  if (activeTasks.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const head = (task: TaskSummary) => {
    const tags = task.tags.length > 0 ? `, tags: ${task.tags.join(', ')}` : ''
    const name = task.name !== task.slug ? ` ${clip(task.name, 100)}` : ''
    return `- **${task.slug}**${name} (${task.status}${task.updated ? `, updated ${task.updated}` : ''}${tags})`
  }
  const shown = activeTasks.slice(0, SUMMARY_TASKS)
  const hidden = activeTasks.length - shown.length
  return {
    ...draft,
    full: block(
      'Active Tasks',
      linesWithin(
        activeTasks,
        (task) => (task.why ? [head(task), `  Why: ${task.why}`] : [head(task)]),
        limit,
      ),
    ),
    summary: block('Active Tasks', [
      ...shown.map(head),
      ...(hidden > 0 ? [moreLine(hidden, 'active tasks', 'run `somnus tasks list`')] : []),
    ]),
    line: `- Active Tasks: ${activeTasks.length} (${clip(activeTasks.map((task) => task.slug).join(', '), 120)}): run \`somnus tasks list\``,
  }
}

/** Bookmarks summarised before "… N more". */
const SUMMARY_BOOKMARKS = 5

/** Bookmarks by salience (★★★ first), then newest first. */
export function bookmarksSection(
  bookmarks: Bookmark[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Bookmarks', importance: 10, head: false }
  if (bookmarks.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const compareTimes = textComparator(bookmarks.map((bookmark) => bookmark.created_at))
  const sorted = [...bookmarks].sort(
    (a, b) => b.salience - a.salience || compareTimes(b.created_at, a.created_at),
  )
  const render = (bookmark: Bookmark) =>
    `- ${stars(bookmark.salience)} ${clip(redactShown(bookmark.message, 300), 300)}${bookmark.task_slug ? ` (task: ${bookmark.task_slug})` : ''}`
  const critical = sorted.filter((bookmark) => bookmark.salience === 3).length
  const shown = sorted.slice(0, SUMMARY_BOOKMARKS)
  const hidden = sorted.length - shown.length
  const title = 'Bookmarks (tagged moments, by salience)'
  return {
    ...draft,
    full: block(title, linesWithin(sorted, render, limit)),
    summary: block(title, [
      ...shown.map(render),
      ...(hidden > 0 ? [moreLine(hidden, 'bookmarks', 'run `somnus bookmark list`')] : []),
    ]),
    line: `- Bookmarks: ${sorted.length} (${critical} critical): run \`somnus bookmark list\``,
  }
}

/** Reminders summarised before "… N more". */
const SUMMARY_REMINDERS = 3

/** Reminders whose trigger matched the current work; ids say which ones each form shows. */
export function remindersSection(
  matched: Trigger[],
  limit = Number.POSITIVE_INFINITY,
): SectionDraft {
  const draft = { name: 'Contextual Reminders', importance: 9, head: false }
  if (matched.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const render = (trigger: Trigger) =>
    `- When "${clip(redactShown(trigger.when, 60), 60)}": ${clip(redactShown(trigger.remind, 300), 300)}`
  const shown = matched.slice(0, SUMMARY_REMINDERS)
  const hidden = matched.length - shown.length
  return {
    ...draft,
    full: block('Contextual Reminders', linesWithin(matched, render, limit)),
    summary: block('Contextual Reminders', [
      ...shown.map(render),
      ...(hidden > 0 ? [moreLine(hidden, 'reminders', 'run `somnus trigger list`')] : []),
    ]),
    line: `- Contextual Reminders: ${matched.length} match your current work: run \`somnus trigger list\``,
    triggerIds: {
      full: matched.map((trigger) => trigger.id),
      summary: shown.map((trigger) => trigger.id),
    },
  }
}
