/**
 * The brain `createSomnus` and `createSomnusHooks` open from their options: on disk through
 * compose.ts, or made of the stores given. Apart from both so that each loads only its own use
 * cases: a CLI command opens a brain without loading the hook use cases, and the reverse.
 */
import { join } from 'node:path'
import { randomIds } from '../engine/adapters/node/random-ids.ts'
import { CONTEXT_DIR_NAME } from '../engine/core/brain-layout.ts'
import { type Config, resolveConfig } from '../engine/core/config.ts'
import { SomnusError } from '../engine/core/errors.ts'
import type { BrainFiles } from '../engine/ports/brain-files.ts'
import { type Clock, systemClock } from '../engine/ports/clock.ts'
import type { IdGenerator } from '../engine/ports/id-generator.ts'
import type { LanguageModel } from '../engine/ports/language-model.ts'
import type { ProjectFiles } from '../engine/ports/project-files.ts'
import type { AnalyzeSession } from '../engine/ports/session-transcripts.ts'
import type { Brain } from './app/brain.ts'
import { brainAt } from './compose.ts'
import { locateBrain } from './locate-brain.ts'
import type { SleepStateStore } from './ports/sleep-state-store.ts'
import type { UnitOfWork } from './ports/unit-of-work.ts'

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
  /**
   * Applies a consolidation all or nothing (default: the journal under `_agent_context/state/`;
   * with stores of your own, one that applies at once to them).
   */
  unitOfWork?: UnitOfWork
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

/** The brain of `options`: on disk through compose.ts, or made of the stores given. */
export function openSomnusBrain(options: SomnusOptions): Brain {
  const env = options.env ?? process.env
  const warn = options.warn ?? ((message: string) => process.stderr.write(`somnus: ${message}\n`))
  const { files, state, unitOfWork } = options
  if (files !== undefined && state !== undefined) {
    if (unitOfWork === undefined) {
      throw new SomnusError(
        'USAGE',
        'A brain made of your own stores needs a unitOfWork too: call createSomnus, which makes one that applies at once, or pass unitOfWork.',
      )
    }
    return storesBrain(options, { files, state, unitOfWork }, env, warn)
  }
  if (files !== undefined || state !== undefined) {
    // The journal applies a consolidation to the folder's own files and ledger.
    throw new SomnusError(
      'USAGE',
      'Pass both files and state (a brain of your own stores), or neither (the brain on disk).',
    )
  }
  return brainAt(rootOf(options, env), {
    env,
    warn,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.config ? { overrides: options.config } : {}),
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
  })
}

function rootOf(options: SomnusOptions, env: Record<string, string | undefined>): string {
  if (options.memory === true) {
    // createSomnus makes the memory stores: this file is in the hook bundle, which needs none.
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
  stores: Pick<Brain, 'files' | 'state' | 'unitOfWork'>,
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
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    warn,
  }
}
