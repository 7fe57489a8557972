/**
 * Task files, `state/<slug>.md`: the brain's working memory (the hippocampus of seed 001's
 * mapping). Frontmatter says what and when; `## Why` says why; `## Log` grows newest first.
 */

import {
  fieldList,
  fieldText,
  parseFrontmatter,
  renderFrontmatter,
  updateFrontmatter,
} from '../../engine/core/frontmatter.ts'
import {
  clip,
  firstContentLine,
  insertLifoEntry,
  neutraliseComments,
  sectionBody,
} from '../../engine/core/markdown-text.ts'
import { compareText } from './snapshot/compare-text.ts'

/** The status `tasks complete` sets; every other status counts as active. */
export const COMPLETED_STATUS = 'completed'

/** What the list, the snapshot and `--json` show of a task. */
export interface TaskSummary {
  slug: string
  name: string
  status: string
  created: string | null
  updated: string | null
  completed: string | null
  tags: string[]
  feature: string | null
  /**
   * First line of `## Why`, at most 100 characters (seed 001's snapshot rule,
   * docs/design/origins.md).
   */
  why: string | null
}

/** The text of a new task file. */
export function renderNewTask(input: {
  slug: string
  name: string
  why: string | null
  tags: string[]
  feature: string | null
  today: string
}): string {
  const why =
    (input.why?.trim() && neutraliseComments(input.why.trim())) ||
    '(why this task exists: the problem, who asked, what done looks like)'
  const body = [
    '',
    '## Why',
    '',
    why,
    '',
    '## Log',
    '<!-- LIFO: newest entry at top -->',
    '',
    `- **${input.today}**: Created.`,
    '',
  ].join('\n')
  return renderFrontmatter(
    {
      name: input.name,
      status: 'active',
      created: input.today,
      updated: input.today,
      tags: input.tags,
      feature: input.feature,
    },
    body,
  )
}

/** Reads a task file; tolerates agentcontext's field names (`created_at`, `updated_at`). */
export function parseTask(slug: string, text: string): TaskSummary {
  const { data, body } = parseFrontmatter(text)
  const whySection = sectionBody(body, 'Why')
  const whyLine = whySection === null ? null : firstContentLine(whySection)
  return {
    slug,
    name: fieldText(data, 'name') ?? slug,
    status: fieldText(data, 'status') ?? 'active',
    created: fieldText(data, 'created') ?? fieldText(data, 'created_at'),
    updated: fieldText(data, 'updated') ?? fieldText(data, 'updated_at'),
    completed: fieldText(data, 'completed'),
    tags: fieldList(data, 'tags'),
    feature: fieldText(data, 'feature'),
    why: whyLine === null ? null : clip(whyLine, 100),
  }
}

/** True until the task is completed. */
export function isTaskActive(task: TaskSummary): boolean {
  return task.status !== COMPLETED_STATUS
}

/** Adds `- **<today>**: <message>` at the top of `## Log` and bumps `updated`. */
export function appendTaskLog(text: string, today: string, message: string): string {
  const entry = `- **${today}**: ${neutraliseComments(clip(message, 2000))}`
  const logged = insertLifoEntry(text, 'Log', entry)
  return updateFrontmatter(logged, { updated: today })
}

/** Marks the task completed today, logging the summary when there is one. */
export function completeTask(text: string, today: string, summary: string | null): string {
  const entry = summary?.trim() ? `Completed: ${summary.trim()}` : 'Completed.'
  const line = `- **${today}**: ${neutraliseComments(clip(entry, 2000))}`
  const logged = insertLifoEntry(text, 'Log', line)
  return updateFrontmatter(logged, { status: COMPLETED_STATUS, completed: today, updated: today })
}

/** Newest first by `updated` (then `created`), ties by slug, so lists are stable. */
export function byRecentUpdate(a: TaskSummary, b: TaskSummary): number {
  const left = a.updated ?? a.created ?? ''
  const right = b.updated ?? b.created ?? ''
  if (left !== right) return left < right ? 1 : -1
  return compareText(a.slug, b.slug)
}
