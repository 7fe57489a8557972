/**
 * The hook-sized half of `createSomnus` (create-somnus.ts): the options, the brain they open and
 * the five use cases Claude Code's hooks call. It lives apart because esbuild bundles every
 * literal `import()` it can see into `dist/hook.js`: this file must never reach the model, the
 * tokenizer or full zod, which `createSomnus` adds. Its imports are static on purpose, as the
 * hook's were before: esbuild wraps every module reached by `import()` in the hook bundle, which
 * only adds code. create-somnus.ts loads this file lazily, so commands that open no brain skip it.
 */
import { join } from 'node:path'
import { randomIds } from './adapters/node/random-ids.ts'
import type { Brain } from './app/brain.ts'
import { reminderForPrompt } from './app/prompt-reminder.ts'
import { logCompaction } from './app/record-compaction.ts'
import { recordEnd } from './app/record-session-end.ts'
import { recordStop, type StopEvent } from './app/record-stop.ts'
import { type SessionStartContext, sessionStartContext } from './app/session-start.ts'
import { brainAt } from './compose.ts'
import { analyzeSession as analyzeOnDisk } from './compose-transcripts.ts'
import { CONTEXT_DIR_NAME } from './core/brain-layout.ts'
import { type Config, resolveConfig } from './core/config.ts'
import { SomnusError } from './core/errors.ts'
import { locateBrain } from './locate-brain.ts'
import type { BrainFiles } from './ports/brain-files.ts'
import { type Clock, systemClock } from './ports/clock.ts'
import type { IdGenerator } from './ports/id-generator.ts'
import type { LanguageModel } from './ports/language-model.ts'
import type { ProjectFiles } from './ports/project-files.ts'
import type { AnalyzeSession } from './ports/session-transcripts.ts'
import type { SleepStateStore } from './ports/sleep-state-store.ts'

export { locateBrain }

/** What SessionEnd records: the session, its transcript and why it ended. */
export type SessionEndEvent = Omit<StopEvent, 'last_assistant_message'> & { reason: string | null }

/**
 * Where the brain is and what it is made of. Unless `memory` is set or both `files` and `state`
 * are given, the brain is `_agent_context/` on disk: `contextDir`, else
 * `<projectDir>/_agent_context`, else the one `locateBrain` finds from `cwd`. Any store passed in
 * replaces the default one; a brain in memory holds only what the stores passed in hold.
 */
export interface SomnusOptions {
  /** The `_agent_context` folder itself (need not exist yet: `init` creates it). */
  contextDir?: string
  /** The project folder whose `_agent_context/` is the brain. */
  projectDir?: string
  /** Where to search for `_agent_context` (walking up), when neither folder is given. */
  cwd?: string
  /** A brain in memory: nothing is read from or written to the disk (transcripts aside). */
  memory?: boolean
  /** Settings and keys come from here (default: `process.env`). */
  env?: Record<string, string | undefined>
  /** Settings that win over `somnus.json` and the environment. */
  config?: Partial<Config>
  /** The brain's documents (default: files under `_agent_context/`, or in memory). */
  files?: BrainFiles
  /** The sleep ledger (default: `_agent_context/state/`, or in memory). */
  state?: SleepStateStore
  /** Files Somnus owns beside the brain, such as `.claude/settings.json`. */
  projectFiles?: ProjectFiles
  /** The consolidation model (default: the one `config.model` names, loaded when a sleep runs). */
  model?: LanguageModel
  clock?: Clock
  ids?: IdGenerator
  /** Reports a problem that did not stop the work (default: a line on stderr). */
  warn?: (message: string) => void
  /** How long a ledger change waits for the lock (default 15 s); a function is asked each time. */
  lockWaitMs?: number | (() => number)
  /** Reads and scores a session's transcript (default: from the disk). */
  analyzeSession?: AnalyzeSession
}

/** The use cases Claude Code's hooks call, bound to one brain. */
export interface SomnusHooks {
  /** The brain these use cases work on. */
  readonly brain: Brain
  /** Stop: books the turn's session in the ledger. */
  recordStop(event: StopEvent): Promise<Awaited<ReturnType<typeof recordStop>>>
  /** SessionStart: the directive and snapshot to inject. */
  sessionStart(): Promise<SessionStartContext>
  /** UserPromptSubmit: a reminder to consolidate, or null. */
  promptReminder(): Promise<string | null>
  /** PreCompact: notes the compaction in the ledger. */
  logCompaction(trigger: string | null): Promise<void>
  /** SessionEnd: books the session's final score. */
  recordSessionEnd(event: SessionEndEvent): Promise<void>
}

/** Opens the brain `options` describe and binds the hook use cases to it. */
export async function createSomnusHooks(options: SomnusOptions = {}): Promise<SomnusHooks> {
  const brain = openBrainOf(options)
  const analyzeSession = options.analyzeSession ?? analyzeOnDisk
  return {
    brain,
    recordStop: (event) => recordStop(brain, analyzeSession, event),
    sessionStart: () => sessionStartContext(brain, analyzeSession),
    promptReminder: () => reminderForPrompt(brain),
    logCompaction: (trigger) => logCompaction(brain, trigger),
    recordSessionEnd: (event) => recordEnd(brain, analyzeSession, event),
  }
}

/** The brain of `options`: on disk through compose.ts, or made of the stores given. */
function openBrainOf(options: SomnusOptions): Brain {
  const env = options.env ?? process.env
  const warn = options.warn ?? ((message: string) => process.stderr.write(`somnus: ${message}\n`))
  const { files, state } = options
  const brain =
    files !== undefined && state !== undefined
      ? storesBrain(options, { files, state }, env, warn)
      : brainAt(rootOf(options, env), {
          env,
          warn,
          ...(options.config ? { overrides: options.config } : {}),
          ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
        })
  return {
    ...brain,
    ...(files ? { files } : {}),
    ...(state ? { state } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
  }
}

function rootOf(options: SomnusOptions, env: Record<string, string | undefined>): string {
  if (options.memory === true) {
    // createSomnus makes the memory stores; this half keeps the hook bundle free of them.
    throw new SomnusError(
      'USAGE',
      'A brain in memory needs its stores: call createSomnus({ memory: true }), or pass both files and state.',
    )
  }
  if (options.contextDir !== undefined) return options.contextDir
  if (options.projectDir !== undefined) return join(options.projectDir, CONTEXT_DIR_NAME)
  return locateBrain({ cwd: options.cwd ?? process.cwd(), env })
}

/** A brain made of the stores given: no folder, default settings plus `env` and `config`. */
function storesBrain(
  options: SomnusOptions,
  stores: Pick<Brain, 'files' | 'state'>,
  env: Record<string, string | undefined>,
  warn: (message: string) => void,
): Brain {
  const projectDir = options.projectDir ?? '/project'
  return {
    root: options.contextDir ?? join(projectDir, CONTEXT_DIR_NAME),
    projectDir,
    config: {
      ...resolveConfig({ fileText: null, filePath: 'somnus.json', env }),
      ...options.config,
    },
    ...stores,
    clock: systemClock,
    ids: randomIds,
    warn,
  }
}
