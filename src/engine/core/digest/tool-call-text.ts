/**
 * What the digest builder reads out of single tool calls: a shell command's program and
 * subcommand, the user's answer to a question, a call the user rejected, a compaction run's answer.
 */
import { oneLine } from './digest-text.ts'
import { shellWords } from './task-events.ts'

/** A tool call as the builder keeps it. */
export interface ToolCall {
  name: string
  input: Record<string, unknown>
  uuid: string
  /** Program and subcommand for Bash (`mix test`), else the tool's name. */
  key: string
  command: string
  kind: 'main' | 'subagent' | 'compaction'
}

/** Subcommands that run another command or script, named by the next word. */
const RUNNERS = new Set(['run', 'exec', 'x', 'dlx'])

/** Program and subcommand of a shell command, after `cd dir &&`, variables and wrappers. */
export function commandKey(command: string): string {
  const segments = command.split(/&&|;|\n/).map((segment) => segment.trim())
  const first = segments.find((segment) => !/^(?:cd|export|source|\.)\s/.test(segment)) ?? ''
  // Quotes only matter past the subcommand; a plain split is enough (and far cheaper) unless
  // the first words are quoted.
  const plain = /^[^'"]*(?:\s|$)[^'"\s]*(?:\s|$)/.test(first)
  const words = (plain ? first.split(/\s+/) : shellWords(first)).filter(
    (word) => word !== '' && !/^\w+=/.test(word),
  )
  while (['sudo', 'env', 'time', 'timeout', 'nohup', 'npx', 'exec'].includes(words[0] ?? ''))
    words.shift()
  if (/^\d/.test(words[0] ?? '')) words.shift()
  const program = (words[0] ?? '').replace(/^.*\//, '')
  const rest = words.slice(1).filter((word) => !word.startsWith('-'))
  const sub = rest[0] ?? ''
  const subName = sub.includes('/') ? sub.replace(/^.*\//, '') : sub
  if (subName === '' || subName.length > 30) return program
  // `npm run lint` and `npm run build` are two commands; so are `bundle exec rspec` and `… rake`.
  const target = RUNNERS.has(subName) ? (rest[1] ?? '').replace(/^.*\//, '') : ''
  return target !== '' && target.length <= 30 && !target.includes('=')
    ? `${program} ${subName} ${target}`
    : `${program} ${subName}`
}

/** The answer text of an AskUserQuestion result: `"question"="answer"` pairs. */
export function userAnswerOf(output: string): string {
  const pairs = [...output.matchAll(/"([^"]+)"="([^"]*)"/g)]
  if (pairs.length === 0) return ''
  return pairs.map((pair) => `asked "${oneLine(pair[1] as string)}": "${pair[2]}"`).join('; ')
}

/** A call the person refused, with what they typed with the refusal ('' for nothing). */
export function rejectionOf(call: ToolCall, said: string): string {
  const what =
    call.command !== '' ? `\`${oneLine(call.command).slice(0, 80)}\`` : `a ${call.name} call`
  // Flags and numbers say what the call would have done (`block: true, timeout: 300000`); ids do not.
  const settings = Object.entries(call.input)
    .filter(([, value]) => typeof value === 'boolean' || typeof value === 'number')
    .map(([name, value]) => `${name}: ${String(value)}`)
  const input = call.command === '' && settings.length > 0 ? ` (${settings.join(', ')})` : ''
  return `rejected ${what}${input}${said === '' ? '' : `: "${oneLine(said)}"`}`
}

/** The answer of a compaction run: the summary, in `<summary>` tags or after "Summary:". */
export function isSummaryAnswer(text: string): boolean {
  return /<summary>|^\s*Summary:\s*$/m.test(text)
}
