/**
 * A compound shell line taken apart (`cd assets && node build.js`, `bd sync --import-only && bd
 * ready`, `git add -f a && git commit -m "…"`): each command with the operator before it, so a
 * failure and its fix are followed command by command. `&&` runs the next part only when the one
 * before passed, so a whole `&&` chain that passed says every part passed; after `;` or `||`
 * only the last part's result is known.
 */
import { changesFilesOrState } from '../transcript/bash-command-effects.ts'
import { withoutHereDocuments } from './test-figures.ts'
import { commandKey } from './tool-call-text.ts'

/** One command of a shell line. */
export interface CommandPart {
  /** The command as written (pipes included: `mix test 2>&1 | tail -5`). */
  text: string
  /** Program and subcommand (`mix test`). */
  key: string
  /** The operator that joined it to the part before ('' for the first). */
  joinedBy: '' | '&&' | '||' | ';'
  /** Sets up the next parts (`cd dir`, `export X=1`, `source env`): no command of its own. */
  setup: boolean
}

const SETUP = /^(?:cd|export|source|\.|set|pushd|popd)(?:\s|$)/

/** The parts of `command`, here-document bodies left out; quoted operators are not split on. */
export function commandParts(command: string): CommandPart[] {
  const code = withoutHereDocuments(command)
  const parts: CommandPart[] = []
  let current = ''
  let quote: string | null = null
  let joinedBy: CommandPart['joinedBy'] = ''
  const push = (next: CommandPart['joinedBy']) => {
    const text = current.trim()
    if (text !== '' && !/^[)"'`]+$/.test(text))
      parts.push({ text, key: commandKey(text), joinedBy, setup: SETUP.test(text) })
    current = ''
    joinedBy = next
  }
  for (let index = 0; index < code.length; index += 1) {
    const character = code[index] as string
    if (quote !== null) {
      current += character
      if (character === '\\' && quote === '"') {
        current += code[index + 1] ?? ''
        index += 1
      } else if (character === quote) quote = null
      continue
    }
    if (character === '"' || character === "'") {
      quote = character
      current += character
      continue
    }
    const pair = code.slice(index, index + 2)
    if (pair === '&&' || pair === '||') {
      push(pair)
      index += 1
    } else if (character === ';' || character === '\n') push(';')
    else current += character
  }
  push(';')
  return parts
}

/** The parts a passing run of `command` proves passed: all of an `&&` chain, else the last. */
export function passedParts(parts: readonly CommandPart[]): CommandPart[] {
  const commands = parts.filter((part) => !part.setup)
  const last = commands.at(-1)
  if (last === undefined) return []
  const chained = parts.slice(1).every((part) => part.joinedBy === '&&')
  return chained ? commands : [last]
}

/**
 * The part of a failed `command` that most likely failed: the one its output names (its
 * subcommand, or an argument such as a path), else the last command of the line.
 */
export function failedPart(parts: readonly CommandPart[], output: string): CommandPart | null {
  const commands = parts.filter((part) => !part.setup)
  if (commands.length <= 1) return commands[0] ?? null
  const lower = output.toLowerCase()
  let best: CommandPart | null = null
  let bestScore = 0
  for (const part of commands) {
    const [program = '', sub = ''] = part.key.toLowerCase().split(' ')
    let score = 0
    if (sub.length > 2 && new RegExp(`\\b${escapeRegExp(sub)}`).test(lower)) score += 2
    if (argumentsOf(part).some((argument) => lower.includes(argument.toLowerCase()))) score += 2
    if (program.length > 2 && lower.includes(program)) score += 1
    if (score >= bestScore && score > 0) {
      best = part
      bestScore = score
    }
  }
  return best ?? (commands.at(-1) as CommandPart)
}

/** The path-like arguments of a part (what its output may name when it fails on one). */
export function argumentsOf(part: Pick<CommandPart, 'text'>): string[] {
  const words = (part.text.split('|')[0] ?? '').split(/\s+/).slice(1)
  return words.filter((word) => /[/.]/.test(word) && !word.startsWith('-') && word.length > 3)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Subcommands that repair something without naming a file: formatters, installs, migrations. */
const FIXING_SUBCOMMAND =
  /^(?:format|fmt|fix|deps\.get|deps\.update|install|i|ci|add|migrate|[\w.]*migrate|[\w.]*codegen|generate|sync|prune|rebuild|tidy)$/
/** Flags that make a command repair rather than check (`--fix`, `--write`, `--force`). */
const FIXING_FLAG = /\s--(?:fix|write|force)\b/

/** True when a shell part repairs state (a formatter, an install, a forced rebuild). */
export function fixesState(part: { text: string; key: string }): boolean {
  const sub = part.key.split(' ')[1] ?? ''
  return (
    changesFilesOrState(part.text) || FIXING_SUBCOMMAND.test(sub) || FIXING_FLAG.test(part.text)
  )
}
