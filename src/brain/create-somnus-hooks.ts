/**
 * The hook-sized half of `createSomnus` (create-somnus.ts): the brain and the seven use cases
 * Claude Code's hooks call. It lives apart because esbuild bundles every literal `import()` it
 * can see into `dist/hook.js`: this file must never reach the model, the tokenizer or full zod,
 * which `createSomnus` adds. Its imports are static, as the hook's were before: esbuild wraps
 * every module reached by `import()` in the hook bundle, which only adds code.
 */

import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { readSettingsFile } from '../engine/adapters/fs/settings-file.ts'
import { patternIndexFor, patternSettingsOrOff } from '../patterns/compose-pattern-hooks.ts'
import type { PatternSettings } from '../patterns/core/pattern-settings.ts'
import {
  claudeProjectsFolder,
  confinedTranscriptFolder,
} from './adapters/fs/claude-transcript-folder.ts'
import { shownLinesFile } from './adapters/fs/shown-lines-file.ts'
import { listSiblingTranscripts } from './adapters/fs/sibling-transcripts.ts'
import type { Brain } from './app/brain.ts'
import { promptReminder } from './app/prompt-reminder.ts'
import { promptRecall } from './app/recall/prompt-recall.ts'
import { logCompaction } from './app/record-compaction.ts'
import { recordSessionEnd } from './app/record-session-end.ts'
import type { StopEvent } from './app/record-stop.ts'
import { recordStop } from './app/record-stop.ts'
import {
  type SessionStartContext,
  type SessionStartOptions,
  sessionStartContext,
} from './app/session-start.ts'
import { openBrainRecall } from './compose-recall.ts'
import { analyzeSession as analyzeOnDisk } from './compose-transcripts.ts'
import { SLEEP_AGENT_FILE, sleepAgentTrusted } from './core/claude-agent-files.ts'
import { shownLines } from './core/recall/prompt-recall.ts'
import { withSomnusCommand } from './core/somnus-command.ts'
import { openSomnusBrain, type SomnusOptions } from './open-somnus-brain.ts'

export { appendLogFile } from '../engine/adapters/fs/log-file.ts'
export {
  claimStopPatternJob,
  createRandomGate,
  patternSettingsOrOff,
} from '../patterns/compose-pattern-hooks.ts'
export type { PatternSettings } from '../patterns/core/pattern-settings.ts'
export { DEFAULT_PATTERN_SETTINGS } from '../patterns/core/pattern-settings.ts'
export { SOMNUS_HOOKS } from './core/claude-settings.ts'
export { somnusCliCommand } from './core/somnus-command.ts'
export { locateBrain } from './locate-brain.ts'
export type { SomnusOptions } from './open-somnus-brain.ts'

/** What SessionEnd records: the session, its transcript and why it ended. */
export type SessionEndEvent = Omit<StopEvent, 'last_assistant_message'> & { reason: string | null }

/** SessionStart's options as the hook passes them. */
export interface HookSessionStartOptions extends SessionStartOptions {
  /**
   * This install's `plugin/` folder: its agent file is Somnus's own text, against which the
   * project's copy is checked before the directive names the agent. Without it, a project copy
   * is not dispatched (nothing to vouch for it).
   */
  pluginDir?: string
  /**
   * The starting session from the payload: Stops missed in its transcript's folder are caught
   * up (brain/app/catch-up-missed-sessions.ts). Without it, nothing is looked for.
   */
  session?: { sessionId: string; transcriptPath: string }
}

/** The use cases Claude Code's hooks call, bound to one brain. */
export interface SomnusHooks {
  /** The brain these use cases work on. */
  readonly brain: Brain
  /** Stop: books the turn's session in the ledger. */
  recordStop(event: StopEvent): Promise<Awaited<ReturnType<typeof recordStop>>>
  /** SessionStart: the directive and snapshot to inject, with the pattern index when learning is on. */
  sessionStart(options?: HookSessionStartOptions): Promise<SessionStartContext>
  /** UserPromptSubmit: a reminder to consolidate, or null. */
  promptReminder(): Promise<string | null>
  /**
   * UserPromptSubmit: the few memory lines that bear on the prompt, with their file:line, or
   * null (off in settings, nothing clearly relevant, no index built yet).
   */
  promptRecall(event: { prompt: string; session_id: string | null }): Promise<string | null>
  /** SessionStart: notes what the session was shown, so prompt recall never repeats it. */
  rememberShown(sessionId: string, text: string): Promise<void>
  /** PreCompact: notes the compaction in the ledger. */
  logCompaction(trigger: string | null): Promise<void>
  /** SessionEnd: books the session's final score. */
  recordSessionEnd(event: SessionEndEvent): Promise<void>
}

/** The most of the SessionStart budget the pattern index may take (a few title lines). */
const PATTERN_INDEX_MAX_CHARS = 1200

/** Opens the brain `options` describe and binds the hook use cases to it. */
export async function createSomnusHooks(options: SomnusOptions = {}): Promise<SomnusHooks> {
  return bindSomnusHooks(openSomnusBrain(options), options)
}

/**
 * The hook use cases bound to `brain`, opened from `options`: the one binding of them, which
 * `createSomnus` (bind-somnus.ts) takes too, so a library's SessionStart is the hook's.
 */
export function bindSomnusHooks(brain: Brain, options: SomnusOptions): SomnusHooks {
  const analyzeSession = options.analyzeSession ?? analyzeOnDisk
  const env = options.env ?? process.env
  // A brain of the caller's own stores has no project on disk to learn patterns for.
  const onDisk = !options.memory && !options.files
  const patternSettings = patternSettingsOrOff(brain.root, env, brain.warn, onDisk)
  return {
    brain,
    recordStop: (event) => recordStop(brain, analyzeSession, event),
    sessionStart: ({ pluginDir, session, ...startOptions } = {}) =>
      sessionStartWithPatterns(brain, analyzeSession, patternSettings, env, {
        ...startOptions,
        ...(onDisk && session !== undefined ? catchUpFor(brain, session, env) : {}),
        ...(onDisk && !sleepAgentDispatchable(brain, pluginDir, startOptions.somnusCommand)
          ? { dispatchSleepAgent: false }
          : {}),
      }),
    promptReminder: () => promptReminder(brain),
    promptRecall: async (event) => {
      if (!onDisk || !brain.config.prompt_recall) return null
      const recall = openBrainRecall({
        root: brain.root,
        projectDir: brain.projectDir,
        env,
        warn: brain.warn,
        maxTranscriptBytes: brain.config.transcript_max_bytes,
      })
      return promptRecall(
        {
          search: (query) => recall.recall(query, ['brain'], { refresh: false }),
          shown: () =>
            event.session_id === null
              ? Promise.resolve([])
              : shownLinesFile(brain.root).linesOf(event.session_id),
        },
        event.prompt,
      )
    },
    rememberShown: async (sessionId, text) => {
      if (!onDisk || !brain.config.prompt_recall) return
      await shownLinesFile(brain.root).remember(sessionId, shownLines(text))
    },
    logCompaction: (trigger) => logCompaction(brain, trigger),
    recordSessionEnd: (event) => recordSessionEnd(brain, analyzeSession, event),
  }
}

/**
 * SessionStart with seed 002's read-before-act index after the snapshot (docs/design/origins.md):
 * the index's room is taken from the snapshot's budget first, so the whole stays within
 * `snapshot_budget_chars`.
 */
async function sessionStartWithPatterns(
  brain: Brain,
  analyzeSession: typeof analyzeOnDisk,
  settings: PatternSettings,
  env: Record<string, string | undefined>,
  options: SessionStartOptions = {},
): Promise<SessionStartContext> {
  let index = ''
  try {
    index = await patternIndexFor({
      cwd: brain.projectDir,
      env,
      settings,
      maxChars: Math.min(
        PATTERN_INDEX_MAX_CHARS,
        Math.floor(brain.config.snapshot_budget_chars / 5),
      ),
    })
  } catch (error) {
    brain.warn(`pattern index not shown: ${(error as Error).message}`)
  }
  if (index === '') return sessionStartContext(brain, analyzeSession, options)
  // The command it names must run here, like every command the snapshot names.
  index = withSomnusCommand(index, options.somnusCommand ?? 'somnus')
  const budget = brain.config.snapshot_budget_chars - index.length - 2
  const context = await sessionStartContext(
    { ...brain, config: { ...brain.config, snapshot_budget_chars: budget } },
    analyzeSession,
    options,
  )
  return { ...context, text: `${context.text}\n\n${index}` }
}

/**
 * False when the project holds a `.claude/agents/somnus-rem-sleep.md` that is not Somnus's own
 * text (brain/core/claude-agent-files.ts says why that matters): one failed open in the usual case of
 * no project copy (the plugin's agent, or the user's, runs).
 */
function sleepAgentDispatchable(
  brain: Brain,
  pluginDir: string | undefined,
  command: string | undefined,
): boolean {
  let existing: string | null
  try {
    existing = readSettingsFile(join(brain.projectDir, SLEEP_AGENT_FILE.projectPath), {
      followLink: false,
    })
  } catch (error) {
    brain.warn(`not dispatching the sleep agent: ${(error as Error).message}`)
    return false
  }
  if (existing === null) return true
  let pluginText: string | null = null
  if (pluginDir !== undefined) {
    try {
      pluginText = readFileSync(join(pluginDir, SLEEP_AGENT_FILE.pluginPath), 'utf8')
    } catch {
      pluginText = null
    }
  }
  return sleepAgentTrusted(existing, pluginText, command ?? 'somnus')
}

/**
 * What SessionStart's catch-up needs, or nothing when the session's transcript is not in a folder
 * Claude Code made (a direct child of its projects folder, real and the user's own): a payload
 * naming /tmp or the repository must not have files planted there booked. "Missed" means written
 * after this brain was made (its folder's birth time, which atomic ledger writes do not change):
 * older transcripts predate Somnus here. A file system that keeps no birth time disables it.
 */
function catchUpFor(
  brain: Brain,
  session: { sessionId: string; transcriptPath: string },
  env: Record<string, string | undefined>,
): { catchUp?: NonNullable<SessionStartOptions['catchUp']> } {
  if (confinedTranscriptFolder(session.transcriptPath, claudeProjectsFolder(env)) === null) {
    brain.warn(
      `missed sessions not looked for: the transcript's folder is not one of Claude Code's project folders (${claudeProjectsFolder(env)}/<project>)`,
    )
    return {}
  }
  let brainCreatedMs = Number.POSITIVE_INFINITY
  try {
    const born = statSync(brain.root).birthtimeMs
    if (born > 0) brainCreatedMs = born
  } catch (error) {
    brain.warn(`missed sessions not looked for: ${(error as Error).message}`)
  }
  return {
    catchUp: {
      startedSessionId: session.sessionId,
      transcriptPath: session.transcriptPath,
      brainCreatedMs,
      listSiblings: listSiblingTranscripts,
    },
  }
}
