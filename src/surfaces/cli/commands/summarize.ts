/** `somnus summarize`: shrink any text to a token budget, offline by default, and show what it kept. */
import type { Command } from 'commander'
import type { Somnus } from '../../../brain/create-somnus.ts'
import { isSomnusError, SomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { readInput } from './read-input.ts'

/** Adds `summarize` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('summarize')
    .description(
      'Summarize a file or stdin within a token budget, keeping the lines that carry facts',
    )
    .argument('[file]', 'the file to summarize; - or nothing reads stdin')
    .option('--budget <tokens>', 'at most this many tokens')
    .option('--ratio <r>', 'at most this share of the input tokens, 0 < r ≤ 1')
    .option(
      '--model <spec>',
      'extractive (default, offline), anthropic:<model>, openai:<model> or claude-cli',
    )
    .option('--json', 'print summary, model, tokens before/after, budget and the source lines kept')
    .addHelpText(
      'after',
      `
The extractive model keeps whole sentences (names, numbers, dates, decisions, corrections, errors
and fixes, preferences) in their original order and never exceeds the budget. Lines are units
with ids L<line>; "Name: text" lines keep the name as the speaker. Ctrl-C (SIGINT) or SIGTERM
stops it at once, also in the middle of a big input (exit 130 / 143); nothing is printed before the
end.

Examples:
  somnus summarize session.md --ratio 0.2
  cat transcript.txt | somnus summarize --budget 300 --json`,
    )
    .action(
      async (
        file: string | undefined,
        options: { budget?: string; ratio?: string; model?: string; json?: boolean },
      ) => {
        // The tokenizer and the models load only here (~0.3 s): `somnus --help` lists this command.
        const { checkBudgetOptions, summarizeText } = await import('../../../brain/summarize.ts')
        // Checked before reading stdin, so a wrong flag fails at once instead of waiting for input.
        const budget = parseNumber('--budget', options.budget)
        const ratio = parseNumber('--ratio', options.ratio)
        checkBudgetOptions(budget, ratio)
        const text = await readInput(io, file)
        const model = await (await somnusHere(io)).languageModel(options.model)
        // The offline model computes in one synchronous pass that no JavaScript signal handler can
        // break into (a 29 MB input held Ctrl-C off for 38 s). For it none is installed: SIGINT and
        // SIGTERM keep their default action and end the process at once (shells report 130 and
        // 143). Nothing is printed before the end, so nothing partial is left behind.
        const signal = model.name === 'extractive' ? undefined : io.interruptSignal?.()
        const result = await summarizeText({ text, budget, ratio, model, signal })
        if (options.json) printJson(io, result)
        else io.stdout(result.summary === '' ? '' : `${result.summary}\n`)
      },
    )
}

function parseNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (value.trim() === '' || !Number.isFinite(number)) {
    throw new SomnusError('USAGE', `${flag} needs a number (got "${value}").`)
  }
  return number
}

/**
 * The project's brain when run inside one (its settings name the model and keys), else an empty
 * one in memory: default settings plus the environment.
 */
async function somnusHere(io: CliIo): Promise<Somnus> {
  try {
    return await openSomnus(io)
  } catch (error) {
    if (isSomnusError(error) && error.code === 'CONTEXT_NOT_FOUND') {
      return openSomnus(io, { memory: true })
    }
    throw error
  }
}
