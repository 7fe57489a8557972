/** `somnus tokens`: counts tokens with the one tokenizer behind every figure Somnus reports. */
import type { Command } from 'commander'
import { type CliIo, printJson } from '../cli-io.ts'
import { readInput } from './read-input.ts'

/** Adds `tokens` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('tokens')
    .description(
      'Count the tokens of a file or of stdin (o200k BPE, the tokenizer of every Somnus figure)',
    )
    .argument('[file]', 'the file to count; - or nothing reads stdin')
    .option('--json', 'print tokens, chars and lines as JSON')
    .addHelpText(
      'after',
      `
Counts any text in time linear in its length. A run with no spaces longer than 256 characters
(a base64 blob, one letter repeated) is counted in slices, within 2% of the tokenizer's count of
the whole run; any other text counts exactly as the tokenizer counts it. Special tokens such as
<|endoftext|> count as the text they are.

Examples:
  somnus tokens CLAUDE.md
  cat notes.md | somnus tokens --json`,
    )
    .action(async (file: string | undefined, options: { json?: boolean }) => {
      const text = await readInput(io, file)
      // The tokenizer's tables load only here (~0.2 s): `somnus --help` lists this command too.
      const { countTokens } = await import('../../../engine/core/tokens.ts')
      const tokens = countTokens(text)
      if (options.json) {
        const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
        printJson(io, { tokens, chars: [...text].length, lines })
      } else {
        io.stdout(`${tokens}\n`)
      }
    })
}
