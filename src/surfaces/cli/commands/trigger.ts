/** `somnus trigger`: reminders that surface when their pattern matches the current work. */
import type { Command } from 'commander'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { parseWholeNumber, triggerLine } from './ledger-text.ts'

/** Adds `trigger` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const open = () => openSomnus(io)
  const say = (text: string) => io.stdout(`${text}\n`)

  const trigger = program
    .command('trigger')
    .description('Contextual reminders: "when working on X, remember Y"')
    .addHelpText(
      'after',
      `
The session snapshot shows a trigger when a keyword of <when> matches an active task or a
bookmark. Each showing counts as a fire; \`sleep done\` removes triggers that reached max fires.

Examples:
  somnus trigger add "auth,login" "JWT tokens expire after 24h: refresh before API calls"
  somnus trigger add billing "Stripe webhooks retry for 3 days" -m 5 -s "incident 2026-02-11"
  somnus trigger list`,
    )

  trigger
    .command('add')
    .description('Add a reminder for when the work matches <when>')
    .argument('<when>', 'keywords, separated by spaces or commas')
    .argument('<remind...>', 'the reminder to show')
    .option('-m, --max-fires <n>', 'how many times it may show before it expires', '3')
    .option('-s, --source <ref>', 'where the lesson came from (session, PR, incident)')
    .addHelpText(
      'after',
      '\nExample:\n  somnus trigger add migrations "Run db:migrate before the tests" -m 5',
    )
    .action(
      async (when: string, words: string[], options: { maxFires: string; source?: string }) => {
        const maxFires = parseWholeNumber(
          options.maxFires,
          '--max-fires',
          'somnus trigger add auth "Refresh tokens first" -m 5',
        )
        const added = await (await open()).addTrigger({
          when,
          remind: words.join(' '),
          maxFires,
          source: options.source ?? null,
        })
        say(
          `Added trigger ${added.id}: when "${added.when}" → ${added.remind} (max ${added.max_fires} fires)`,
        )
      },
    )

  trigger
    .command('list')
    .description('List the triggers that can still fire')
    .option('--json', 'print the triggers as JSON')
    .addHelpText('after', '\nExamples:\n  somnus trigger list\n  somnus trigger list --json')
    .action(async (options: { json?: boolean }) => {
      const triggers = await (await open()).listTriggers()
      if (options.json) printJson(io, triggers)
      else say(triggers.length === 0 ? 'No active triggers.' : triggers.map(triggerLine).join('\n'))
    })

  trigger
    .command('remove')
    .description('Delete a trigger by id')
    .argument('<id>', 'the id shown by `somnus trigger list`')
    .addHelpText('after', '\nExample:\n  somnus trigger remove trg_3fa9c01e')
    .action(async (id: string) => {
      const removed = await (await open()).removeTrigger(id)
      say(`Removed trigger ${removed.id} (when "${removed.when}").`)
    })
}
