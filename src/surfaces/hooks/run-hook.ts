/**
 * Runs one Claude Code hook event in-process: parse stdin, find the brain, do the event's work,
 * return what to print. A hook never blocks the agent (principle 5, docs/design/principles.md):
 * every problem (bad stdin, no brain, broken transcript, a bug) becomes one log line and an empty
 * answer, exit 0.
 */
import { isAbsolute, join } from 'node:path'
import {
  appendLogFile,
  claimStopPatternJob,
  patternSettingsOrOff,
  SOMNUS_HOOKS,
  type SomnusHooks,
} from '../../brain/create-somnus-hooks.ts'
import { CONTEXT_DIR_NAME } from '../../engine/core/brain-layout.ts'
import { environmentFault } from '../../engine/core/environment-fault.ts'
import { isSomnusError } from '../../engine/core/errors.ts'
import { inertLogText } from '../../engine/core/log-text.ts'
import { fixedClock } from '../../engine/ports/clock.ts'
import { defaultHookDependencies, type HookDependencies } from './hook-dependencies.ts'
import {
  HOOK_EVENTS,
  type HookEvent,
  type HookInputs,
  isHookEvent,
  parseHookInput,
} from './hook-input.ts'
import { patternJobsFor } from './pattern-jobs.ts'

/** Where a hook runs: the folder and environment of the Claude Code process that started it. */
export interface HookContext {
  cwd: string
  env: Record<string, string | undefined>
  /** Fixes the clock (tests). */
  now?: Date
  /**
   * When the hook process started (epoch ms): Claude Code's timeout runs from there, stdin
   * included. Defaults to the call of `runHook`.
   */
  startedAt?: number
  /** A problem met while reading stdin (it timed out), logged with the run's lines. */
  stdinNote?: string
  /**
   * How Claude runs this install (`"<node>" "<package>/bin/somnus.js"`), written into the commands
   * SessionStart names; plain `somnus` when absent.
   */
  somnusCommand?: string
  /** This install's `plugin/` folder (Somnus's own agent text); absent when not run from dist. */
  pluginDir?: string
}

/** What a hook run produced: text for stdout, and the lines it appended to the hook log. */
export interface HookResult {
  stdout: string
  log: string[]
}

/** The hook log inside a brain (dot-prefixed, next to the ledger). */
export const BRAIN_HOOK_LOG = 'state/.somnus-hook.log'

/** The log is rotated to `<name>.1` past this size, so a forgotten log never fills a disk. */
const LOG_ROTATE_BYTES = 1024 * 1024

/**
 * Log lines one hook run writes; the rest become one summary line. A planted ledger can make
 * every run warn once per session (20,000 lines per start), which would bury the log's history.
 */
export const MAX_LOG_LINES_PER_RUN = 50

/**
 * Waiting for the ledger lock ends this long before the event's Claude Code timeout, leaving the
 * time to write, answer and exit before Claude Code kills the hook.
 */
const ANSWER_MARGIN_MS = 750
/**
 * A Stop gives up on the lock earlier (at 3 s of its 5 s) and queues its turn in the ledger's
 * inbox instead: on a machine busy enough to keep the lock that long, the append and the exit
 * need the time, and a Stop killed by Claude Code's timeout would lose the turn.
 */
const STOP_ANSWER_MARGIN_MS = 2000

/** Events that do nothing useful without a parsed payload (they record a session or a trigger). */
const NEEDS_PAYLOAD: ReadonlySet<HookEvent> = new Set(['stop', 'pre-compact', 'session-end'])

/**
 * Runs `event` with `stdinText`. Never throws and never rejects: failures are logged to
 * `_agent_context/state/.somnus-hook.log` (or `$HOME/.somnus/hook.log` when no brain was found or
 * its log cannot be written) and give an empty stdout.
 */
export async function runHook(
  event: string,
  stdinText: string,
  context: HookContext,
  dependencies: HookDependencies = defaultHookDependencies,
): Promise<HookResult> {
  const startedAt = context.startedAt ?? Date.now()
  const clockNow = () => context.now ?? new Date()
  const log: string[] = []
  const logLine = (message: string) => {
    log.push(
      `${clockNow().toISOString()} ${inertLogText(event || '(none)')} ${inertLogText(oneLine(message))}`,
    )
  }
  let unlogged = 0
  const note = (message: string) => {
    if (log.length < MAX_LOG_LINES_PER_RUN) logLine(message)
    else unlogged += 1
  }
  let root: string | null = null
  let stdout = ''
  if (context.stdinNote) note(context.stdinNote)
  try {
    if (!isHookEvent(event)) {
      note(`unknown hook event; known: ${HOOK_EVENTS.join(', ')}`)
      return { stdout, log }
    }
    const parsed = parseHookInput(event, stdinText)
    if (!parsed.ok) note(parsed.problem)
    // Sub-agent work is counted from `<session>/subagents/` by the parent's Stop, which fires at
    // the end of the same turn; recording it here too would only cost a lock per sub-agent.
    if (event === 'subagent-stop') return { stdout, log }
    const input: Partial<HookInputs[HookEvent]> = parsed.ok ? parsed.input : {}
    const start = input.cwd || context.env.CLAUDE_PROJECT_DIR || context.cwd
    try {
      root = dependencies.locateBrain({ cwd: start, env: context.env })
    } catch (error) {
      if (isSomnusError(error) && error.code === 'CONTEXT_NOT_FOUND') {
        note(`no ${CONTEXT_DIR_NAME}/ at or above ${start}: nothing to do`)
        return { stdout, log }
      }
      throw error
    }
    if (!parsed.ok && NEEDS_PAYLOAD.has(event)) return { stdout, log }
    const margin = event === 'stop' ? STOP_ANSWER_MARGIN_MS : ANSWER_MARGIN_MS
    const lockDeadline = startedAt + timeoutMsOf(event) - margin
    const somnus = await dependencies.createSomnusHooks({
      contextDir: root,
      env: context.env,
      warn: note,
      lockWaitMs: () => Math.max(0, lockDeadline - Date.now()),
      ...(context.now ? { clock: fixedClock(context.now) } : {}),
    })
    stdout = await dispatch(event, input, somnus, note, context)
    startPatternJobs(event, input, { root, cwd: start, env: context.env }, dependencies, note)
  } catch (error) {
    // Logged past the cap: the line that says why the run failed is the one that matters.
    logLine(`failed: ${describeError(error)}`)
    // A repository can plant what makes every hook fail (a linked ledger): the session is told,
    // in one line, so Somnus is never switched off unseen.
    stdout =
      event === 'session-start'
        ? `Somnus could not load this project's memory (${CONTEXT_DIR_NAME}/): ${describeError(error).split('\n')[0]?.slice(0, 400)}\n`
        : ''
  } finally {
    if (unlogged > 0) logLine(`${unlogged} more warnings in this run not logged`)
    writeLog(log, root, context.env, logLine)
  }
  return { stdout, log }
}

async function dispatch(
  event: HookEvent,
  input: Partial<HookInputs[HookEvent]>,
  somnus: SomnusHooks,
  note: (message: string) => void,
  context: HookContext,
): Promise<string> {
  const { somnusCommand, pluginDir } = context
  switch (event) {
    case 'stop': {
      const stop = input as Partial<HookInputs['stop']>
      if (!stop.session_id) {
        note('no session_id in stdin: nothing recorded')
        return ''
      }
      await somnus.recordStop({
        session_id: stop.session_id,
        transcript_path: stop.transcript_path ?? null,
        last_assistant_message: stop.last_assistant_message ?? null,
      })
      return ''
    }
    case 'session-start': {
      const start = input as Partial<HookInputs['session-start']>
      const sessionId = start.session_id
      const transcriptPath = start.transcript_path
      const { text } = await somnus.sessionStart({
        ...(somnusCommand ? { somnusCommand } : {}),
        ...(pluginDir ? { pluginDir } : {}),
        // Only the payload's own transcript folder is looked in (one per project in Claude Code).
        ...(sessionId && transcriptPath && isAbsolute(transcriptPath)
          ? { session: { sessionId, transcriptPath } }
          : {}),
      })
      if (sessionId) {
        // Bookkeeping for prompt recall: its failure never costs the session its snapshot.
        await somnus.rememberShown(sessionId, text).catch((error: unknown) => {
          note(`shown lines not recorded: ${describeError(error)}`)
        })
      }
      return text
    }
    case 'user-prompt-submit': {
      const prompt = input as Partial<HookInputs['user-prompt-submit']>
      const reminder = await somnus.promptReminder()
      let recalled: string | null = null
      if (prompt.prompt) {
        // Recall adds to the prompt; it must never take the reminder (or the prompt) down with it.
        recalled = await somnus
          .promptRecall({ prompt: prompt.prompt, session_id: prompt.session_id ?? null })
          .catch((error: unknown) => {
            note(`prompt recall skipped: ${describeError(error)}`)
            return null
          })
      }
      const parts = [reminder, recalled].filter((part): part is string => part !== null)
      return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`
    }
    case 'pre-compact':
      await somnus.logCompaction((input as Partial<HookInputs['pre-compact']>).trigger ?? null)
      return ''
    case 'session-end': {
      const end = input as Partial<HookInputs['session-end']>
      if (!end.session_id) {
        note('no session_id in stdin: nothing recorded')
        return ''
      }
      await somnus.recordSessionEnd({
        session_id: end.session_id,
        transcript_path: end.transcript_path ?? null,
        reason: end.reason ?? null,
      })
      return ''
    }
    case 'subagent-stop':
      return ''
  }
}

/**
 * Starts the detached pattern runs the event asks for (seed 002, docs/design/origins.md); a failure
 * to start is logged and never fails the hook.
 */
function startPatternJobs(
  event: HookEvent,
  input: Partial<HookInputs[HookEvent]>,
  where: { root: string; cwd: string; env: Record<string, string | undefined> },
  dependencies: HookDependencies,
  note: (message: string) => void,
): void {
  if (event !== 'stop' && event !== 'pre-compact' && event !== 'session-end') return
  try {
    const settings = patternSettingsOrOff(where.root, where.env, note)
    const jobs = patternJobsFor(event, input, {
      settings,
      cwd: where.cwd,
      hookLog: join(where.root, ...BRAIN_HOOK_LOG.split('/')),
    })
    if (jobs.length === 0) return
    if (event === 'stop' && !claimStopPatternJob({ ...where, settings, now: Date.now() })) return
    for (const job of jobs)
      (dependencies.startDetached ?? (() => {}))(job, { cwd: where.cwd, env: where.env })
  } catch (error) {
    note(`pattern learning not started: ${describeError(error)}`)
  }
}

/** The event's timeout as `somnus init` wires it into Claude Code's settings. */
function timeoutMsOf(event: HookEvent): number {
  const seconds = SOMNUS_HOOKS.find((spec) => spec.verb === event)?.timeout
  // Every event has one; the shortest, in case a new event is added without.
  return (seconds ?? Math.min(...SOMNUS_HOOKS.map((spec) => spec.timeout))) * 1000
}

/** The log in the user's home: for hooks without a brain, and for a brain whose log fails. */
function homeLogPath(env: Record<string, string | undefined>): string {
  // node:os is loaded only here: loading it costs every hook ~0.35 ms, and HOME is nearly always set.
  return join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.somnus', 'hook.log')
}

/**
 * Appends `lines` to the brain's log, or when that fails (a read-only state folder, a directory
 * in its place, a full disk) to the home log, with a line saying why: a hook whose work failed
 * must leave a trace somewhere. Lines noted here join `lines`, which is also the caller's result.
 */
function writeLog(
  lines: string[],
  root: string | null,
  env: Record<string, string | undefined>,
  note: (message: string) => void,
): void {
  if (lines.length === 0) return
  const homeLog = homeLogPath(env)
  if (root !== null) {
    const brainLog = join(root, ...BRAIN_HOOK_LOG.split('/'))
    const problem = appendLog(brainLog, lines, root)
    if (problem === null) return
    note(`could not write the hook log ${brainLog} (${problem}); wrote to ${homeLog} instead`)
  }
  const problem = appendLog(homeLog, lines, null)
  // Nowhere left to write: the lines stay in the result, so a caller (or test) still sees them.
  if (problem !== null) note(`could not write the hook log ${homeLog}: ${problem}`)
}

/**
 * Appends `lines` to the log at `path` (inside the brain `within`, or the home log when null),
 * never through a symlink, FIFO or hard link; null, or what went wrong.
 */
function appendLog(path: string, lines: string[], within: string | null): string | null {
  try {
    appendLogFile({ path, text: `${lines.join('\n')}\n`, within, rotateBytes: LOG_ROTATE_BYTES })
    return null
  } catch (error) {
    return describeError(error)
  }
}

function describeError(error: unknown): string {
  if (isSomnusError(error)) return `${error.code}: ${error.message}`
  const fault = environmentFault(error)
  if (fault) return `${fault.code}: ${fault.message}`
  if (error instanceof Error) return `${error.name}: ${error.message} @ ${firstFrame(error)}`
  return String(error)
}

function firstFrame(error: Error): string {
  return error.stack?.split('\n')[1]?.trim() ?? 'no stack'
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
