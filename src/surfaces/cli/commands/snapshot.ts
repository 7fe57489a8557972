/** `somnus snapshot`: print what the SessionStart hook would inject. */
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { somnusCommandHere } from '../somnus-command-here.ts'

/** Adds `snapshot` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('snapshot')
    .description(
      'Print the session-start snapshot: core files, tasks, bookmarks, sleep state, knowledge',
    )
    .option('--budget <chars>', 'character budget (default: snapshot_budget_chars, 10000)')
    .option('--tokens', 'also print the token count: chars/4 and the exact BPE count')
    .option('--peek', 'do not count surfaced reminders as fired')
    .option('--json', 'print text, sections (form, chars) and fired trigger ids as JSON')
    .addHelpText(
      'after',
      `
Sections that do not fit are demoted (full → summary → one line → omitted), least important first;
lines are never cut. Shown reminders count as fired, as at session start (--peek to avoid that).
The commands it names call Somnus as the hooks do: by this install's path ("<node>"
"<package>/bin/somnus.js"), unless \`somnus\` on PATH is this install.

Examples:
  somnus snapshot --tokens
  somnus snapshot --budget 4000 --json`,
    )
    .action(
      async (options: { budget?: string; tokens?: boolean; peek?: boolean; json?: boolean }) => {
        const somnus = await openSomnus(io)
        const budgetChars = options.budget === undefined ? undefined : parseBudget(options.budget)
        // The skill tells Claude to run this; every command it names must run where Claude runs it.
        const somnusCommand = somnusCommandHere(io.env)
        const snapshot = await somnus.buildSnapshot({ budgetChars, somnusCommand })
        if (!options.peek) await somnus.recordTriggerFires(snapshot.firedTriggerIds)
        // The tokenizer is too heavy for the hook path; this command may load it on demand.
        const tokens = options.tokens
          ? {
              approximate: Math.ceil(snapshot.text.length / 4),
              exact: (await import('../../../engine/core/tokens.ts')).countTokens(snapshot.text),
            }
          : undefined
        if (options.json) {
          printJson(io, { ...snapshot, chars: snapshot.text.length, tokens })
          return
        }
        io.stdout(`${snapshot.text}\n`)
        if (tokens) {
          io.stdout(
            `\n---\n${snapshot.text.length} chars, ~${tokens.approximate} tokens (chars/4); ${tokens.exact} tokens counted exactly (o200k BPE, as \`somnus tokens\` does)\n`,
          )
        }
      },
    )
}

function parseBudget(value: string): number {
  const budget = Number(value)
  if (!Number.isInteger(budget) || budget < 1) {
    throw new SomnusError(
      'USAGE',
      `--budget must be a positive whole number of characters, not "${value}".`,
    )
  }
  return budget
}
