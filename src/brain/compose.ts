/**
 * The composition root: picks the adapters of a brain on disk; `createSomnus` (create-somnus.ts),
 * the one way in, calls it and binds the use cases. Two parts live beside it
 * so their callers need not load it: models (compose-model.ts) and transcript reading
 * (compose-transcripts.ts, re-exported here).
 * Keep imports here light: the hook path loads this file, so SQL, HTTP, MCP and LLM adapters are
 * imported lazily by the functions that need them.
 */

import { join } from 'node:path'
import { createFsProjectFiles } from '../engine/adapters/fs/fs-project-files.ts'
import { readSettingsFile, readUserSettings } from '../engine/adapters/fs/settings-file.ts'
import { randomIds } from '../engine/adapters/node/random-ids.ts'
import { documentPath } from '../engine/core/brain-layout.ts'
import { type Config, ignoredKeysWarning, resolveConfig } from '../engine/core/config.ts'
import { isSomnusError } from '../engine/core/errors.ts'
import type { Unit } from '../engine/core/model-results.ts'
import { redactDocument } from '../engine/core/redact-document.ts'
import type { BrainFiles } from '../engine/ports/brain-files.ts'
import { type Clock, systemClock } from '../engine/ports/clock.ts'
import type { IdGenerator } from '../engine/ports/id-generator.ts'
import type { ProjectFiles } from '../engine/ports/project-files.ts'
import {
  claudeProjectsFolder,
  isConfinedTranscript,
} from './adapters/fs/claude-transcript-folder.ts'
import { createFsBrainFiles } from './adapters/fs/fs-brain-files.ts'
import { createFsSleepStateStore } from './adapters/fs/fs-sleep-state-store.ts'
import { createFsUnitOfWork } from './adapters/fs/fs-unit-of-work.ts'
import type { Brain } from './app/brain.ts'
import { transcriptFiles } from './compose-transcripts.ts'
import type { SessionRecord } from './core/sleep-state.ts'

export { analyzeSession, transcriptFiles } from './compose-transcripts.ts'

/** The file, inside the context root, that holds the user's settings. */
export const CONFIG_FILE_NAME = 'somnus.json'

/** What the caller knows about the world when it opens the brain at a known root. */
export interface BrainAtOptions {
  env: Record<string, string | undefined>
  clock?: Clock
  ids?: IdGenerator
  warn?: (message: string) => void
  /** Settings that win over file and environment (command-line flags). */
  overrides?: Partial<Config>
  /** How long a ledger change waits for the lock (default 15 s); a function is asked each time. */
  lockWaitMs?: number | (() => number)
}

/** A brain at a known root, whether or not it exists yet (used by `init`). */
export function brainAt(root: string, options: BrainAtOptions): Brain {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`somnus: ${message}\n`))
  const { config: settings, notices } = settingsOf(root, options.env)
  for (const notice of notices) warn(notice)
  const config = { ...settings, ...options.overrides }
  const projectsFolder = claudeProjectsFolder(options.env)
  const state = createFsSleepStateStore({
    stateDir: join(root, 'state'),
    brainRoot: root,
    warn,
    // The inbox is repository text: a line books only its session's own transcript (README
    // "Security"), scored afresh from it.
    admitsQueuedStop: (stop) =>
      stop.transcript_path !== null &&
      isConfinedTranscript(stop.transcript_path, stop.session_id, projectsFolder),
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
  })
  const clock = options.clock ?? systemClock
  const ids = options.ids ?? randomIds
  return {
    root,
    projectDir: join(root, '..'),
    config,
    files: redactingBrainFiles(createFsBrainFiles(root)),
    state,
    unitOfWork: createFsUnitOfWork({ root, state, clock, ids, warn }),
    clock,
    ids,
    warn,
    notices,
  }
}

/**
 * The brain's settings from the user's `~/.somnus/settings.json`, the repository's
 * `somnus.json` and the environment, with what the user must hear about them. A repository file
 * that is bad (not JSON, a wrong type, a symlink) never stops the hooks: the defaults are used and
 * the notice says what to fix. One that names user-only keys (the model, provider URLs and keys)
 * has them ignored, with one notice.
 */
function settingsOf(
  root: string,
  env: Record<string, string | undefined>,
): { config: Config; notices: string[] } {
  const filePath = join(root, CONFIG_FILE_NAME)
  const user = readUserSettings(env)
  const notices: string[] = []
  const base = { filePath, env, userText: user.text, userPath: user.path }
  try {
    const fileText = readSettingsFile(filePath, { followLink: false })
    const config = resolveConfig({
      ...base,
      fileText,
      onIgnored: (ignored) => notices.push(ignoredKeysWarning(filePath, ignored)),
    })
    return { config, notices }
  } catch (error) {
    if (!isSomnusError(error) || error.code !== 'INVALID_INPUT') throw error
    if (error.details?.path === user.path) throw error
    notices.push(
      `${error.message} Until then Somnus runs with its defaults (turns are still recorded).`,
    )
    return { config: resolveConfig({ ...base, fileText: null }), notices }
  }
}

/**
 * `files`, with every document redacted as it is written: whatever a command was given (a task
 * log, a knowledge note, a changelog line), no secret reaches a file that may be committed.
 */
function redactingBrainFiles(files: BrainFiles): BrainFiles {
  return {
    ...files,
    write: (document, text) => files.write(document, redactDocument(documentPath(document), text)),
  }
}

/** The files Somnus owns in the project folder beside the brain (`.claude/settings.json`). */
export function projectFilesOf(brain: Pick<Brain, 'projectDir'>): ProjectFiles {
  return createFsProjectFiles(brain.projectDir)
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
        import('../engine/core/transcript/transcript-analyzer.ts'),
        import('../engine/core/transcript/transcript-units.ts'),
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
