/** `somnus tasks`: create a task file, log to it, complete it, list them. */
import { utcDay } from '../../engine/core/dates.ts'
import { SomnusError } from '../../engine/core/errors.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { requireSlug, slugify } from '../core/slug.ts'
import {
  appendTaskLog,
  byRecentUpdate,
  completeTask,
  isTaskActive,
  parseTask,
  renderNewTask,
  type TaskSummary,
} from '../core/tasks.ts'
import type { Brain } from './brain.ts'
import { readTasks, taskDocument } from './brain-documents.ts'

/** What `tasks create` needs. */
export interface CreateTaskInput {
  /** A slug (`fix-auth`) or a name (`Fix the auth bug`), which is turned into a slug. */
  slugOrName: string
  why?: string | null
  tags?: string[]
  feature?: string | null
}

/** Creates `state/<slug>.md`; a USAGE error when the task exists or the name makes no slug. */
export async function createTask(brain: Brain, input: CreateTaskInput): Promise<TaskSummary> {
  // The name becomes a file name and a heading: a secret in it goes before either is made.
  const raw = redactSecrets(input.slugOrName.trim())
  const slug = requireSlug(slugify(raw) || raw, 'task')
  const feature = input.feature ? requireSlug(input.feature, 'feature') : null
  const task = taskDocument(slug)
  if ((await brain.files.read(task)) !== null) {
    throw new SomnusError(
      'USAGE',
      `Task "${slug}" already exists (${brain.files.where(task)}): log to it with \`somnus tasks log ${slug} <message>\`, or pick another name.`,
    )
  }
  const text = renderNewTask({
    slug,
    name: raw,
    why: input.why ?? null,
    tags: (input.tags ?? []).map((tag) => tag.trim()).filter(Boolean),
    feature,
    today: utcDay(brain.clock.now()),
  })
  await brain.files.write(task, text)
  return parseTask(slug, text)
}

/** Adds a dated line at the top of the task's `## Log`. */
export async function logTask(brain: Brain, slug: string, message: string): Promise<TaskSummary> {
  if (message.trim() === '') {
    throw new SomnusError(
      'USAGE',
      'The log message is empty: `somnus tasks log <slug> <message...>`.',
    )
  }
  return rewriteTask(brain, slug, (text, today) => appendTaskLog(text, today, message))
}

/** Marks the task completed today, logging the summary when given. */
export async function markTaskCompleted(
  brain: Brain,
  slug: string,
  summary: string | null,
): Promise<TaskSummary> {
  return rewriteTask(brain, slug, (text, today) => completeTask(text, today, summary))
}

/** Tasks, most recently updated first; completed ones only when `all`. */
export async function listTasks(
  brain: Brain,
  options: { all?: boolean } = {},
): Promise<TaskSummary[]> {
  const tasks = await readTasks(brain)
  return tasks.filter((task) => options.all || isTaskActive(task)).sort(byRecentUpdate)
}

async function rewriteTask(
  brain: Brain,
  slug: string,
  change: (text: string, today: string) => string,
): Promise<TaskSummary> {
  requireSlug(slug, 'task')
  const task = taskDocument(slug)
  const text = await brain.files.read(task)
  if (text === null) {
    throw new SomnusError(
      'NOT_FOUND',
      `No task "${slug}" (${brain.files.where(task)}): see \`somnus tasks list --all\`, or create it with \`somnus tasks create ${slug}\`.`,
    )
  }
  const next = change(text, utcDay(brain.clock.now()))
  await brain.files.write(task, next)
  return parseTask(slug, next)
}
