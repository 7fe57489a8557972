/**
 * Error → fix pairs, followed as the session runs. A failing call opens a problem named by its
 * real error line; the agent's next words usually say the cause. What fixes it is what made the
 * failing command pass afterwards: the changes (edits, state-changing commands) made between the
 * failure and the next run of the same command, when that run passed or failed differently, or
 * a different spelling of the command that passed. A change followed by the same failure fixed
 * nothing and is forgotten; a problem closed later is a gotcha with its fix, never an open issue.
 */
import { errorLineOf } from '../transcript/error-line.ts'
import { argumentsOf } from './command-parts.ts'
import { code, leadingSentences, oneLine, sentencesOf } from './digest-text.ts'
import type { ErrorFix } from './error-fix.ts'
import { changeText, describeChanges, shownCommand } from './error-fix-text.ts'

/** Narration that opens a sentence: the agent announcing its next step, not a cause. */
const NARRATION =
  /^(?:(?:now|next|first|ok(?:ay)?|good|great|perfect|alright|then|i see|got it)[,.!:]?\s+)*(?:let me|let's|let us|i'll|i will|i'm going to|i need to|we'll|we need to|now i|i should)\b/i

/** Outputs that say how Claude Code ran a tool, not what went wrong in the project. */
const TOOL_MECHANICS =
  /Sibling tool call errored|File has not been read yet|File does not exist|has been modified since read|String to replace not found|exceeds maximum allowed tokens|EISDIR|doesn't want to proceed|tool use was rejected|Request interrupted/i

/** Lines that name no error by themselves. */
const EMPTY_ERROR_LINE = /^(?:Exit code \d+)?$/

/** Lines of an output that say what failed: error notations, a runner's failed test, a hook's section. */
const SIGNATURE_LINE =
  /\b(?:error|fail\w*|exception|fatal|panic|cannot|undefined|denied|refused|not found|invalid)\b|^\s*\[[A-Z][A-Z _-]{2,}\]|^\s*\d+\) test\b/i

/** Follows failures and fixes through a session's records. */
export class ErrorFixTracker {
  readonly all: ErrorFix[] = []
  /** Compaction summaries seen so far; the builder counts them. */
  epoch = 0
  /** The open failures of each command key, oldest first. */
  private readonly open = new Map<string, ErrorFix[]>()
  /** The last failure, until the agent's next text gives its cause. */
  private awaitingCause: ErrorFix | null = null
  /** Errors a hook or a summary reported, each fixed by the next edit, in order. */
  private readonly awaitingEdit: ErrorFix[] = []

  /** A call failed; returns false when the failure is tool mechanics, not worth remembering. */
  fail(key: string, command: string, output: string, source: string): boolean {
    this.awaitingCause = null
    if (TOOL_MECHANICS.test(output)) return false
    const text = output.replace(/\\n/g, '\n')
    const errorLine = errorLineOf(text)
    if (EMPTY_ERROR_LINE.test(errorLine)) return false
    const signature = signatureOf(errorLine, text)
    const open = this.open.get(key) ?? []
    const same = open.find((failure) => failure.signature === signature)
    if (same !== undefined) {
      // The same failure again: what was changed since fixed nothing.
      same.changes = []
      same.sources.push(source)
      return true
    }
    // Another failure of the command: the earlier ones that something was changed for are fixed
    // by it; those nothing was changed for (the agent only tried another spelling) stay open.
    for (const earlier of open.filter((failure) => failure.changes.length > 0))
      this.close(earlier, '', source)
    const failure = this.record(key, errorLine, [source], {
      command,
      signature,
      mentions: argumentsOf({ text: command }).filter((argument) => mentioned(argument, text)),
    })
    this.all.push(failure)
    this.open.set(key, [...(this.open.get(key) ?? []), failure])
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
    const failure = this.record('hook', errorLine, [source], { fromHook: true })
    this.all.push(failure)
    this.awaitingCause = failure
    // A hook reports what is wrong now: a newer report replaces what is still waiting.
    this.awaitingEdit.splice(0, this.awaitingEdit.length, failure)
  }

  /**
   * The agent named a limitation of a tool before it happened ("the generated migration uses
   * `modify`, which SQLite doesn't support") and its next edit went around it: a gotcha whose fix
   * is that edit, though no command failed.
   */
  limitation(statement: string, cause: string, path: string, fix: string, sources: string[]): void {
    const errorLine = oneLine(statement)
    if (fix === '' || this.all.some((known) => known.errorLine === errorLine)) return
    this.all.push(
      this.record('limitation', errorLine, sources, { cause, edits: [path], fix, fixed: true }),
    )
  }

  /**
   * A compaction summary lists an error as not fixed yet ("CURRENT: cannot invoke ... inside a
   * guard"): the session's next edits fix the summary's open errors, in the order listed.
   */
  summaryProblem(text: string, source: string): void {
    const errorLine = oneLine(text).replace(/\s*\(line \d+[^)]*\)/i, '')
    if (this.all.some((known) => known.errorLine === errorLine)) return
    const failure = this.record('summary', errorLine, [source])
    this.all.push(failure)
    this.awaitingEdit.push(failure)
  }

  /**
   * The part `key` of a command passed (`command` is that part, `setup` the parts run before it
   * in the same line that it needed, e.g. `bd sync --import-only` before `bd ready`): the open
   * failure of `key` is fixed, unless it failed on an argument this run did not touch.
   */
  succeed(key: string, command: string, source: string, setup = ''): void {
    for (const open of [...(this.open.get(key) ?? [])]) {
      if (open.mentions.length > 0 && !open.mentions.some((argument) => command.includes(argument)))
        continue
      // What ran before it in the same line is part of the fix only when nothing else was done:
      // `bd sync --import-only && bd ready` after `bd ready` failed, not `git add … && git commit`
      // after the edits that fixed the commit.
      const sameCommand = onlyPathsDiffer(shownCommand(open.command), shownCommand(command))
      const withSetup = setup !== '' && !(sameCommand && open.changes.length > 0)
      const run = shownCommand(withSetup ? `${setup} && ${command}` : command)
      this.close(open, run, source)
    }
  }

  /** A state-changing command (an install, a formatter) passed: it may be part of a fix. */
  ranCommand(key: string, command: string): void {
    for (const failure of [...this.open.values()].flat())
      if (failure.key !== key)
        failure.changes.push({
          kind: 'command',
          path: '',
          text: code(shownCommand(command)),
          assertion: false,
        })
  }

  /** The agent called a tool: text after it no longer explains the last failure. */
  toolCalled(): void {
    this.awaitingCause = null
  }

  /**
   * A file was edited: `note` is what the agent announced, `added` the code the edit added. It is
   * the fix of a hook's error, and part of the fix of every open failure.
   */
  edited(path: string, note = '', added = '', source = ''): void {
    const text = changeText(path, note, added)
    const waiting = this.awaitingEdit.shift()
    if (waiting !== undefined && text !== '') {
      waiting.fix = text
      waiting.edits.push(path)
      waiting.fixed = true
      if (source !== '') waiting.sources.push(source)
    }
    const assertion = /^\s*(?:assert|refute|expect\(|should\b)/m.test(added.replace(/; /g, '\n'))
    for (const failure of [...this.open.values()].flat())
      failure.changes.push({ kind: 'edit', path, text, assertion })
  }

  /** The agent spoke: its first non-narration sentences explain the last failure. */
  agentText(text: string): void {
    const failure = this.awaitingCause
    // Claude Code writes an empty text block before a thinking block: not the agent speaking yet.
    if (failure === null || text.trim() === '') return
    this.awaitingCause = null
    // "The endpoint has no secret_key_base in test:" before a code block is a cause; "Let me
    // check the config:" is narration, with or without its colon.
    const cause = sentencesOf(oneLine(text.replace(/```[\s\S]*?```/g, ' ')))
      .map((sentence) => sentence.replace(/:$/, '.'))
      .filter((sentence) => !NARRATION.test(sentence) && sentence.split(' ').length >= 4)
      .slice(0, 2)
      .join(' ')
    failure.cause = leadingSentences(cause, 240)
  }

  /** A new failure of `key` named by `errorLine`, nothing known of its fix yet, `fields` on top. */
  private record(
    key: string,
    errorLine: string,
    sources: string[],
    fields: Partial<ErrorFix> = {},
  ): ErrorFix {
    return {
      key,
      command: '',
      errorLine,
      signature: errorLine,
      mentions: [],
      cause: '',
      changes: [],
      edits: [],
      fix: '',
      fixCommand: '',
      fixed: false,
      sources,
      fromHook: false,
      epoch: this.epoch,
      ...fields,
    }
  }

  /** True when the last failure of `key` was never followed by a success. */
  isOpen(key: string): boolean {
    return (this.open.get(key) ?? []).length > 0
  }

  /**
   * `failure` is over: a run passed (`run`, the command that passed) or failed differently. It
   * was fixed by the changes since it failed, or by running a different command.
   */
  private close(failure: ErrorFix, run: string, source: string): void {
    const left = (this.open.get(failure.key) ?? []).filter((other) => other !== failure)
    if (left.length > 0) this.open.set(failure.key, left)
    else this.open.delete(failure.key)
    const differentCommand =
      run !== '' &&
      oneLine(run) !== oneLine(failure.command) &&
      !onlyPathsDiffer(failure.command, run)
    const edits = failure.changes.filter((change) => change.kind === 'edit')
    failure.edits = [...new Set(edits.map((change) => change.path))]
    failure.fix = describeChanges(failure.changes)
    if (differentCommand && run.length <= 160) failure.fixCommand = run
    failure.fixed = failure.changes.length > 0 || failure.fixCommand !== '' || run !== ''
    failure.sources.push(source)
  }
}

/** True when every change of the fix only rewrote a test's expectations. */
export function onlyAssertionsChanged(failure: ErrorFix): boolean {
  const edits = failure.changes.filter((change) => change.kind === 'edit')
  return (
    edits.length > 0 &&
    failure.changes.every((change) => change.kind === 'edit') &&
    edits.every((change) => change.assertion && /test|spec/i.test(change.path))
  )
}

/** The failure's identity: its error line and the output's other error lines, digits and ids left out. */
function signatureOf(errorLine: string, output: string): string {
  const lines = output
    .split('\n')
    .filter((line) => SIGNATURE_LINE.test(line))
    .map(normalized)
  return [normalized(errorLine), ...[...new Set(lines)].slice(0, 12).sort()].join('\n')
}

function normalized(line: string): string {
  return line
    .replace(/\b[0-9a-f]{7,}\b/gi, '#')
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
}

function mentioned(argument: string, output: string): boolean {
  if (output.includes(argument)) return true
  // "The following paths are ignored: priv/static/assets" names the folder of the argument.
  const folder = argument.replace(/\/[^/]*$/, '')
  return folder !== argument && folder.includes('/') && output.includes(folder)
}

/** True when `fixed` only adds paths to `failed` (`mix test a_test.exs`): a rerun, not a fix. */
export function onlyPathsDiffer(failed: string, fixed: string): boolean {
  const before = new Set(failed.split(/\s+/))
  const after = fixed.split(/\s+/)
  const added = after.filter((word) => !before.has(word))
  const removed = [...before].filter((word) => !after.includes(word))
  const pathish = (word: string) =>
    /[/]|\.\w{1,5}$|^\d*>|^2>&1$|^\|$|^tail$|^head$|^-\d+$/.test(word)
  return added.every(pathish) && removed.every(pathish)
}
