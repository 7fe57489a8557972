/**
 * How an error → fix pair is told: a change in words (the agent's announcement, with the code the
 * edit added), a command as a reader needs it, and the gotcha line `symptom → cause → fix`.
 */
import { code, leadingSentences, oneLine } from './digest-text.ts'
import type { Change, ErrorFix } from './error-fix.ts'

/** At most this many changes describe a fix. */
const MAX_CHANGES = 3

/**
 * An edit in words: what the agent announced, with the code it added when the announcement names
 * no code itself ("fix the two errors in `a.ex`" says less than `%{index: ^index} = info`).
 */
export function changeText(path: string, note: string, added: string): string {
  if (added === '') return note
  const where = `${code(fileName(path))}: ${code(added)}`
  if (note === '') return where
  return /`[^`]+`\s*$|`[^`]+`[^`]*`[^`]+`/.test(note) && !/\bfix(?:es)?\b/i.test(note)
    ? note
    : `${note.replace(/[.:;]+$/, '')} (${where})`
}

/** The changes as a fix: the agent's words or the added code per change, in order, a few at most. */
export function describeChanges(changes: readonly Change[]): string {
  const texts = [...new Set(changes.map((change) => change.text).filter((text) => text !== ''))]
  return texts.slice(0, MAX_CHANGES).join('; ')
}

/** A command as a reader needs it: without `2>&1` and the `| tail -5` that only trimmed its output. */
export function shownCommand(command: string): string {
  return oneLine(command)
    .replace(/\s(-m|--message)\s+("(?:[^"\\]|\\.)*"|'[^']*')/g, ' $1 "…"')
    .replace(/\s+\d?>&\d\b/g, '')
    .replace(/(?:\s*\|\s*(?:tail|head)(?:\s+-n)?(?:\s+-?\d+)?)+\s*$/, '')
    .trim()
}

function fileName(path: string): string {
  return path.replace(/^.*\//, '')
}

/** A gotcha line: symptom (`error line`, where) → cause → fix. */
export function describeErrorFix(failure: ErrorFix): string {
  return [symptomOf(failure), ...remedyOf(failure)].join(' → ')
}

/** The real error line and where it showed. */
export function symptomOf(failure: ErrorFix): string {
  // Output quoted inside JSON keeps its escaped line breaks: the first line is the error.
  const first = failure.errorLine.split('\\n')[0] as string
  const line = code(leadingSentences(first, 160).replace(/…$/, ''))
  if (failure.fromHook) return `${line} (a hook, after an edit)`
  if (failure.command !== '' && failure.key !== failure.command)
    return `${line} in ${code(failure.key)}`
  return line
}

/** Cause and fix: the agent's explanation, then the changes or the command that fixed it. */
export function remedyOf(failure: ErrorFix): string[] {
  const parts: string[] = []
  if (failure.cause !== '') parts.push(failure.cause.replace(/[.]$/, ''))
  const fix: string[] = []
  if (failure.fix !== '' && !failure.cause.toLowerCase().includes(failure.fix.toLowerCase()))
    fix.push(failure.fix)
  else if (failure.fix === '' && failure.edits.length > 0 && failure.fixCommand === '')
    fix.push(`changed ${code(failure.edits[0] as string)}`)
  if (failure.fixCommand !== '') fix.push(code(failure.fixCommand.replace(/\s+2>&1\b/g, '')))
  if (fix.length > 0) parts.push(fix.join(', then '))
  else if (failure.fixed && parts.length === 0) parts.push('passed on a rerun')
  return parts
}
