/**
 * Error → fix pairs, followed as the session runs: a failing call opens a problem named by its
 * real error line; the agent's next words usually say the cause; files edited meanwhile and the
 * next successful run of the same command (`mix test`, `git push`) close it. A problem closed
 * later is a gotcha with its fix, never an open issue.
 */
import { errorLineOf } from '../transcript/error-line.ts'
import { code, leadingSentences, oneLine, sentencesOf } from './digest-text.ts'

/** A failure and, when the session fixed it, what fixed it. */
export interface ErrorFix {
  /** Which command or tool failed (`mix test`, `git push`, `Skill`): a rerun of it is the test. */
  key: string
  command: string
  errorLine: string
  /** The agent's explanation right after the failure, when it gave one. */
  cause: string
  /** Files edited between the failure and the success. */
  edits: string[]
  /** The first change the agent announced after the failure (its fix, in the agent's words). */
  fix: string
  /** The command that succeeded, when it differs from the failing one. */
  fixCommand: string
  fixed: boolean
  /** Record ids: the failing result first, then the fix. */
  sources: string[]
  /** Reported by a hook (compile errors after an edit) rather than by a failing call. */
  fromHook: boolean
  /** How many compaction summaries came before it (a summary already covers earlier ones). */
  epoch: number
}

/** Narration that opens a sentence: the agent announcing its next step, not a cause. */
const NARRATION =
  /^(?:(?:now|next|first|ok(?:ay)?|good|great|perfect|alright|then|i see|got it)[,.!:]?\s+)*(?:let me|let's|let us|i'll|i will|i'm going to|i need to|we'll|we need to|now i|i should)\b/i

/** Outputs that say how Claude Code ran a tool, not what went wrong in the project. */
const TOOL_MECHANICS =
  /Sibling tool call errored|File has not been read yet|File does not exist|has been modified since read|String to replace not found|exceeds maximum allowed tokens|EISDIR|doesn't want to proceed|tool use was rejected|Request interrupted/i

/** Lines that name no error by themselves. */
const EMPTY_ERROR_LINE = /^(?:Exit code \d+)?$/

/** Follows failures and fixes through a session's records. */
export class ErrorFixTracker {
  readonly all: ErrorFix[] = []
  /** Compaction summaries seen so far; the builder counts them. */
  epoch = 0
  private readonly unresolved = new Map<string, ErrorFix[]>()
  /** The last failure, until the agent's next text gives its cause. */
  private awaitingCause: ErrorFix | null = null
  /** The last error a hook reported, until the next edit (its fix). */
  private hookFailure: ErrorFix | null = null

  /** A call failed; returns false when the failure is tool mechanics, not worth remembering. */
  fail(key: string, command: string, output: string, source: string): boolean {
    this.awaitingCause = null
    if (TOOL_MECHANICS.test(output)) return false
    const errorLine = errorLineOf(output)
    if (EMPTY_ERROR_LINE.test(errorLine)) return false
    const failure: ErrorFix = {
      key,
      command,
      errorLine,
      cause: '',
      edits: [],
      fix: '',
      fixCommand: '',
      fixed: false,
      sources: [source],
      fromHook: false,
      epoch: this.epoch,
    }
    this.all.push(failure)
    const open = this.unresolved.get(key) ?? []
    open.push(failure)
    this.unresolved.set(key, open)
    this.awaitingCause = failure
    return true
  }

  /** A hook reported an error after a tool call (a compile error after an edit). */
  hookError(text: string, source: string): void {
    // The first line names the hook (`PostToolUse:Edit hook additional context: [COMPILE ERROR]`).
    const body = text
      .replace(/<\/?system-reminder>/g, '')
      .replace(/^[^\n]*hook additional context:[^\n]*\n/im, '')
    const errorLine = errorLineOf(body)
    if (!/error|fail|cannot|undefined|exception/i.test(errorLine)) return
    if (this.all.some((known) => known.errorLine === errorLine)) return
    const failure: ErrorFix = {
      key: 'hook',
      command: '',
      errorLine,
      cause: '',
      edits: [],
      fix: '',
      fixCommand: '',
      fixed: false,
      sources: [source],
      fromHook: true,
      epoch: this.epoch,
    }
    this.all.push(failure)
    this.awaitingCause = failure
    this.hookFailure = failure
  }

  /** A call of `key` succeeded: every open failure of it is fixed. */
  succeed(key: string, command: string, source: string): void {
    const open = this.unresolved.get(key)
    if (open === undefined) return
    this.unresolved.delete(key)
    for (const failure of open) {
      failure.fixed = true
      failure.sources.push(source)
      if (oneLine(command) !== oneLine(failure.command) && command.length <= 160)
        failure.fixCommand = oneLine(command)
    }
  }

  /** The agent called a tool: text after it no longer explains the last failure. */
  toolCalled(): void {
    this.awaitingCause = null
  }

  /** A file was edited, with the change the agent announced: it may fix every open failure. */
  edited(path: string, note = ''): void {
    const hook = this.hookFailure
    this.hookFailure = null
    if (hook !== null && hook.fix === '') {
      hook.fix = note
      hook.edits.push(path)
    }
    for (const open of this.unresolved.values()) {
      for (const failure of open) {
        if (!failure.edits.includes(path)) failure.edits.push(path)
        if (failure.fix === '') failure.fix = note
      }
    }
  }

  /** The agent spoke: its first non-narration sentences explain the last failure. */
  agentText(text: string): void {
    const failure = this.awaitingCause
    if (failure === null) return
    this.awaitingCause = null
    const cause = sentencesOf(oneLine(text.replace(/```[\s\S]*?```/g, ' ')))
      .filter(
        (sentence) =>
          !NARRATION.test(sentence) && !sentence.endsWith(':') && sentence.split(' ').length >= 4,
      )
      .slice(0, 2)
      .join(' ')
    failure.cause = leadingSentences(cause, 240)
  }

  /** True when the last failure of `key` was never followed by a success. */
  isOpen(key: string): boolean {
    return (this.unresolved.get(key)?.length ?? 0) > 0
  }
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

/** Cause and fix: the agent's explanation, then the change or command that fixed it. */
export function remedyOf(failure: ErrorFix): string[] {
  const parts: string[] = []
  if (failure.cause !== '') parts.push(failure.cause.replace(/[.]$/, ''))
  const fix: string[] = []
  if (failure.fix !== '' && !failure.cause.toLowerCase().includes(failure.fix.toLowerCase()))
    fix.push(failure.fix)
  else if (failure.fix === '' && failure.edits.length > 0 && failure.fixCommand === '')
    fix.push(`changed ${code(failure.edits[0] as string)}`)
  if (failure.fixCommand !== '' && !onlyPathsDiffer(failure.command, failure.fixCommand))
    fix.push(code(failure.fixCommand.replace(/\s+2>&1\b/g, '')))
  if (fix.length > 0) parts.push(fix.join(', then '))
  else if (failure.fixed && parts.length === 0) parts.push('passed on a rerun')
  return parts
}

/** True when `fixed` only adds paths to `failed` (`mix test a_test.exs`): a rerun, not a fix. */
function onlyPathsDiffer(failed: string, fixed: string): boolean {
  const before = new Set(failed.split(/\s+/))
  const added = fixed.split(/\s+/).filter((word) => !before.has(word))
  return added.length > 0 && added.every((word) => /[/]|\.\w{1,5}$|^\d*>/.test(word))
}
