/** `somnus sleep`: the sleep debt ledger (status, debt, add, start, done, history). */
import type { Command } from 'commander'
import { REM_SLEEP_AGENT } from '../../../brain/brain-values.ts'
import type { SleepStatus } from '../../../brain/index.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { historyLine, levelRange, parseWholeNumber, sessionLine } from './ledger-text.ts'
import { registerSleepRun } from './sleep-run.ts'

/** Adds `sleep` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const open = () => openSomnus(io)
  const say = (text: string) => io.stdout(`${text}\n`)

  const sleep = program
    .command('sleep')
    .description('Track sleep debt and consolidation: how much work awaits folding into memory')
    .addHelpText(
      'after',
      `
Every session books debt (seed policy: 0-3 per session). Levels: 0-3 Alert, 4-6 Drowsy,
7-9 Sleepy, 10+ Must Sleep. Set "scoring": "calibrated" in _agent_context/somnus.json for the
0-10 log-scaled score (levels 24 / 40 / 60).

Examples:
  somnus sleep status                 debt, level and the sessions waiting
  somnus sleep add 2 "Designed the auth flow with the user"
  somnus sleep start                  (the sleep agent, before consolidating)
  somnus sleep done "Folded auth decisions into memory"`,
    )

  sleep
    .command('status')
    .description('Show the debt, the level, the last sleep and every session since')
    .option('--json', 'print the status as JSON (seed field names)')
    .addHelpText('after', '\nExamples:\n  somnus sleep status\n  somnus sleep status --json')
    .action(async (options: { json?: boolean }) => {
      const status = await (await open()).getSleepStatus()
      if (options.json) printJson(io, status)
      else say(renderStatus(status))
    })

  sleep
    .command('debt')
    .description('Print the current debt as a bare number (for scripts)')
    .addHelpText('after', '\nExample:\n  [ "$(somnus sleep debt)" -ge 10 ] && echo "time to sleep"')
    .action(async () => {
      say(String(await (await open()).getSleepDebt()))
    })

  sleep
    .command('add')
    .description('Record debt for work no transcript shows (a design talk, a decision)')
    .argument('<score>', 'debt to add: 1-3 (seed policy) or 1-10 (calibrated)')
    .argument('<description...>', 'what the work was')
    .addHelpText(
      'after',
      '\nExample:\n  somnus sleep add 2 "Agreed the API versioning scheme with the user"',
    )
    .action(async (scoreText: string, words: string[]) => {
      const example = 'somnus sleep add 2 "Designed the auth flow"'
      const score = parseWholeNumber(scoreText, 'Score', example)
      const added = await (await open()).addSleepDebt({ score, description: words.join(' ') })
      say(`Added ${score} to sleep debt: now ${added.debt} (${added.level}).`)
      if (added.level === 'Must Sleep') {
        say(`Must sleep: dispatch the ${REM_SLEEP_AGENT} sub-agent to consolidate now.`)
      } else if (added.level === 'Sleepy') {
        say('Getting sleepy: consider consolidating soon.')
      }
    })

  sleep
    .command('start')
    .description('Mark the start of a consolidation; work recorded after it survives `sleep done`')
    .addHelpText('after', '\nExample:\n  somnus sleep start   (step 0 of the sleep agent)')
    .action(async () => {
      const started = await (await open()).startSleep()
      if (started.previous_started_at) {
        io.stderr(
          `somnus: a consolidation was already marked as started at ${started.previous_started_at}; moved the start to now.\n`,
        )
      }
      say(`Consolidation started at ${started.started_at}.`)
      say('Work recorded from now on is kept by `somnus sleep done`.')
    })

  sleep
    .command('done')
    .description('Mark the consolidation complete: clear consolidated sessions, reset the debt')
    .argument('<summary...>', 'what was consolidated (kept in the sleep history)')
    .addHelpText(
      'after',
      '\nExample:\n  somnus sleep done "Folded JWT decisions into memory, added an auth trigger"',
    )
    .action(async (words: string[]) => {
      const done = await (await open()).finishSleep(words.join(' '))
      const { debt_before: before } = done.history
      say(`Consolidation recorded. Debt ${before} → ${done.debt} (${done.level}).`)
      if (done.sessions_kept > 0 || done.bookmarks_kept > 0) {
        say(
          `Kept ${done.sessions_kept} session(s) and ${done.bookmarks_kept} bookmark(s) recorded after \`sleep start\` for the next sleep.`,
        )
      }
    })

  sleep
    .command('history')
    .description('List past consolidations, newest first')
    .option('-n, --limit <count>', 'how many to show', '10')
    .option('--json', 'print the entries as JSON')
    .addHelpText('after', '\nExamples:\n  somnus sleep history\n  somnus sleep history -n 3 --json')
    .action(async (options: { limit: string; json?: boolean }) => {
      const limit = parseWholeNumber(options.limit, '--limit', 'somnus sleep history -n 5')
      const entries = await (await open()).getSleepHistory(limit)
      if (options.json) printJson(io, entries)
      else
        say(entries.length === 0 ? 'No consolidations yet.' : entries.map(historyLine).join('\n'))
    })

  registerSleepRun(sleep, io)
}

function renderStatus(status: SleepStatus): string {
  const lines = [
    `Sleep debt: ${status.debt} (${status.level}, ${levelRange(status, status.level)}; ${status.policy} scoring)`,
    `Last sleep: ${status.last_sleep ?? 'never'}${status.last_sleep_summary ? ` — ${status.last_sleep_summary}` : ''}`,
    `Sessions since last sleep: ${status.sessions_since_last_sleep}`,
    `Bookmarks pending: ${status.bookmarks_pending}`,
  ]
  if (status.sleep_started_at) {
    lines.push(`Consolidation in progress since ${status.sleep_started_at}`)
  }
  if (status.sessions.length === 0) {
    lines.push('', 'No sessions since the last sleep.')
  } else {
    lines.push('', 'Sessions (newest first):', ...status.sessions.map((s) => `  ${sessionLine(s)}`))
  }
  return lines.join('\n')
}
