/** `somnus tasks`: the brain's working memory, one file per task in `_agent_context/state/`. */
import type { Command } from 'commander'
import type { TaskSummary } from '../../../brain/brain-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

/** Adds `tasks` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const open = () => openSomnus(io)
  const tasks = program
    .command('tasks')
    .description('Create, log, complete and list tasks (_agent_context/state/*.md)')

  tasks
    .command('create')
    .description('Create state/<slug>.md with a Why and a newest-first Log')
    .argument(
      '<slug-or-name>',
      'a slug (fix-auth) or a name ("Fix the auth bug"), turned into a slug',
    )
    .option('--why <text>', 'why the task exists (first line shows at session start)')
    .option('--tags <a,b>', 'comma-separated tags (warm knowledge and reminders match on them)')
    .option('--feature <slug>', 'the feature PRD (core/features/<slug>.md) this task belongs to')
    .option('--json', 'print the task as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  somnus tasks create "Fix token refresh" --why "Users get logged out hourly" --tags auth,api',
    )
    .action(
      async (
        slugOrName: string,
        options: { why?: string; tags?: string; feature?: string; json?: boolean },
      ) => {
        const task = await (await open()).createTask({
          slugOrName,
          why: options.why ?? null,
          tags: splitList(options.tags),
          feature: options.feature ?? null,
        })
        if (options.json) printJson(io, task)
        else io.stdout(`Created task ${task.slug}: _agent_context/state/${task.slug}.md\n`)
      },
    )

  tasks
    .command('log')
    .description('Add a dated line at the top of the task Log')
    .argument('<slug>', 'the task')
    .argument('<message...>', 'what happened')
    .action(async (slug: string, message: string[]) => {
      const task = await (await open()).logTask(slug, message.join(' '))
      io.stdout(`Logged to ${task.slug}.\n`)
    })

  tasks
    .command('complete')
    .description('Mark the task completed (status, completed date) and log the summary')
    .argument('<slug>', 'the task')
    .argument('[summary...]', 'what was done')
    .action(async (slug: string, summary: string[]) => {
      const task = await (await open()).markTaskCompleted(
        slug,
        summary.length > 0 ? summary.join(' ') : null,
      )
      io.stdout(`Completed ${task.slug} (${task.completed}).\n`)
    })

  tasks
    .command('list')
    .description('Active tasks, most recently updated first')
    .option('--all', 'include completed tasks')
    .option('--json', 'print the tasks as JSON')
    .action(async (options: { all?: boolean; json?: boolean }) => {
      const found = await (await open()).listTasks({ all: options.all })
      if (options.json) printJson(io, found)
      else io.stdout(renderTaskList(found, options.all === true))
    })
}

/** "a, b,c" → ["a", "b", "c"]. */
export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}

function renderTaskList(tasks: TaskSummary[], all: boolean): string {
  if (tasks.length === 0) {
    return all
      ? 'No tasks yet: `somnus tasks create <name>`.\n'
      : 'No active tasks (`--all` shows completed ones).\n'
  }
  const lines = tasks.flatMap((task) => {
    const tags = task.tags.length > 0 ? ` [${task.tags.join(', ')}]` : ''
    const name = task.name !== task.slug ? ` ${task.name}` : ''
    const when = task.completed ? `completed ${task.completed}` : `updated ${task.updated ?? '?'}`
    const head = `- ${task.slug}${name} (${task.status}, ${when})${tags}`
    return task.why ? [head, `    Why: ${task.why}`] : [head]
  })
  return `${lines.join('\n')}\n`
}
