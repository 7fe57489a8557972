/**
 * The composition root: picks adapters and hands them to the use cases. Two parts live beside it
 * so their callers need not load it: models (compose-model.ts) and transcript reading
 * (compose-transcripts.ts, re-exported here).
 * Keep imports here light: the hook path loads this file, so SQL, HTTP, MCP and LLM adapters are
 * imported lazily by the functions that need them.
 */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { findContextRoot } from './adapters/fs/find-context-root.ts'
import { createFsBrainFiles } from './adapters/fs/fs-brain-files.ts'
import { createFsProjectFiles } from './adapters/fs/fs-project-files.ts'
import { createFsSleepStateStore } from './adapters/fs/fs-sleep-state-store.ts'
import { createFsUnitOfWork } from './adapters/fs/fs-unit-of-work.ts'
import { randomIds } from './adapters/node/random-ids.ts'
import { type Brain, CONTEXT_DIR_NAME } from './app/brain.ts'
import { transcriptFiles } from './compose-transcripts.ts'
import { type Config, resolveConfig } from './core/config.ts'
import { SomnusError } from './core/errors.ts'
import type { Unit } from './core/model-results.ts'
import type { SessionRecord } from './core/sleep-state.ts'
import { type Clock, systemClock } from './ports/clock.ts'
import type { IdGenerator } from './ports/id-generator.ts'
import type { ProjectFiles } from './ports/project-files.ts'

export { analyzeSession, transcriptFiles } from './compose-transcripts.ts'

/** The file, inside the context root, that holds the user's settings. */
export const CONFIG_FILE_NAME = 'somnus.json'

/** What the caller knows about the world when it opens a brain. */
export interface OpenBrainOptions {
  /** Where to start looking for `_agent_context` (walks up at most 5 folders). */
  cwd: string
  env: Record<string, string | undefined>
  /** Use exactly this context root instead of searching (`init`, `--dir`). */
  root?: string
  clock?: Clock
  ids?: IdGenerator
  warn?: (message: string) => void
  /** Settings that win over file and environment (command-line flags). */
  overrides?: Partial<Config>
  /** How long a ledger change waits for the lock (default 15 s); a function is asked each time. */
  lockWaitMs?: number | (() => number)
}

/** The context root for `options`, or a CONTEXT_NOT_FOUND error that says how to create one. */
export function locateContextRoot(options: Pick<OpenBrainOptions, 'cwd' | 'env' | 'root'>): string {
  const explicit = options.root ?? options.env.SOMNUS_CONTEXT_DIR
  if (explicit) return explicit
  const found = findContextRoot(options.cwd)
  if (found) return found
  throw new SomnusError(
    'CONTEXT_NOT_FOUND',
    `No ${CONTEXT_DIR_NAME}/ folder in ${options.cwd} or the 5 folders above it. Run \`somnus init\` in your project, or set SOMNUS_CONTEXT_DIR.`,
  )
}

/** Opens the brain for `options.cwd`: file store, ledger store, settings, clock and ids. */
export function openBrain(options: OpenBrainOptions): Brain {
  const root = locateContextRoot(options)
  return brainAt(root, options)
}

/** A brain at a known root, whether or not it exists yet (used by `init`). */
export function brainAt(root: string, options: Omit<OpenBrainOptions, 'cwd' | 'root'>): Brain {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`somnus: ${message}\n`))
  const configPath = join(root, CONFIG_FILE_NAME)
  const config = {
    ...resolveConfig({
      fileText: readOptional(configPath),
      filePath: configPath,
      env: options.env,
    }),
    ...options.overrides,
  }
  const state = createFsSleepStateStore({
    stateDir: join(root, 'state'),
    brainRoot: root,
    warn,
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
  })
  const clock = options.clock ?? systemClock
  const ids = options.ids ?? randomIds
  return {
    root,
    projectDir: join(root, '..'),
    config,
    files: createFsBrainFiles(root),
    state,
    unitOfWork: createFsUnitOfWork({ root, state, clock, ids, warn }),
    clock,
    ids,
    warn,
  }
}

/** The files Somnus owns in the project folder beside the brain (`.claude/settings.json`). */
export function projectFilesOf(brain: Pick<Brain, 'projectDir'>): ProjectFiles {
  return createFsProjectFiles(brain.projectDir)
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

/**
 * Reads a session's transcript as consolidation units (prompts and agent text after `since`),
 * for `sleep run`. Missing or unreadable transcripts give no units: the session summary remains.
 */
export function composeTranscriptUnits(
  brain: Brain,
): (session: SessionRecord, since: string | null) => Promise<Unit[]> {
  return async (session, since) => {
    if (!session.transcript_path) return []
    try {
      const lines = await transcriptFiles.openTranscriptLines(session.transcript_path)
      if (lines === null) return []
      const [{ countWindowFor }, { TranscriptUnitCollector }] = await Promise.all([
        import('./core/transcript/transcript-analyzer.ts'),
        import('./core/transcript/transcript-units.ts'),
      ])
      const collector = new TranscriptUnitCollector(countWindowFor(since ?? undefined))
      for await (const line of lines) collector.addLine(line)
      collector.finish()
      return collector.units
    } catch (error) {
      brain.warn(`could not read ${session.transcript_path}: ${(error as Error).message}`)
      return []
    }
  }
}
