/**
 * `createSomnusPatterns(options)`: the front door of pattern learning (seed 002,
 * docs/design/origins.md), for the CLI, the detached encode a hook starts, and library users. It
 * opens the project's pattern workspace and binds the use cases to it; the model loads only for the
 * verbs that need it.
 */

import { readSettingsFile, readUserSettings } from '../engine/adapters/fs/settings-file.ts'
import type { Clock } from '../engine/ports/clock.ts'
import type { LanguageModel } from '../engine/ports/language-model.ts'
import type { ConsolidateResult } from './app/consolidate-patterns.ts'
import type { EncodeResult } from './app/encode-patterns.ts'
import type { PatternWorkspace } from './app/pattern-workspace.ts'
import type { PruneResult } from './app/prune-patterns.ts'
import { findBrainFor, openPatternWorkspace } from './compose-patterns.ts'
import type { PatternEntry } from './core/pattern-entry.ts'

export { appendLogFile } from '../engine/adapters/fs/log-file.ts'
/** Where and how pattern learning runs. */
export interface SomnusPatternsOptions {
  /** A folder of the project (default: the current folder); its git root is the project. */
  cwd?: string
  env?: Record<string, string | undefined>
  clock?: Clock
  /** A model or a spec (`extractive`, `anthropic:<model>`...); default: the brain's setting, else extractive. */
  model?: LanguageModel | string
}

/** Pattern learning's use cases, bound to one project. */
export interface SomnusPatterns {
  readonly workspace: PatternWorkspace
  /** Encodes a session from its transcript file (and its `<session>/subagents/*.jsonl`). */
  encode(request: {
    transcriptPath: string
    sessionId?: string
    dryRun?: boolean
  }): Promise<EncodeResult>
  /** Prunes, counts, groups and crystallizes (seed 002 items 5-8, 10). */
  consolidate(request?: { dryRun?: boolean }): Promise<ConsolidateResult>
  /** Drops entries older than `days` (default: the `prune_days` setting). */
  prune(request?: { days?: number; dryRun?: boolean }): Promise<PruneResult>
  /** Entries, newest first. */
  list(options?: { domain?: string; all?: boolean }): Promise<PatternEntry[]>
  /** A domain file's text, or one entry by id. */
  show(domainOrId: string): Promise<string | null>
  /** The SessionStart index. */
  index(): Promise<string>
}

/** Opens the pattern workspace of the project `options.cwd` is in. */
export async function createSomnusPatterns(
  options: SomnusPatternsOptions = {},
): Promise<SomnusPatterns> {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const workspace = openPatternWorkspace({
    cwd,
    env,
    ...(options.clock ? { clock: options.clock } : {}),
  })
  const model = async (): Promise<LanguageModel> => {
    if (options.model !== undefined && typeof options.model !== 'string') return options.model
    const [{ resolveConfig }, { composeLanguageModel }, { join }] = await Promise.all([
      import('../engine/core/config.ts'),
      import('../engine/compose-model.ts'),
      import('node:path'),
    ])
    const brain = findBrainFor(cwd, env)
    const path = brain === null ? 'somnus.json' : join(brain, 'somnus.json')
    let fileText: string | null = null
    try {
      fileText = brain === null ? null : readSettingsFile(path, { followLink: false })
    } catch {
      // A bad repository file: the hooks and `somnus sleep status` say so; defaults here.
      fileText = null
    }
    const user = readUserSettings(env)
    // The repository's model and keys are ignored (the hooks and the CLI warn about them).
    const config = resolveConfig({
      fileText,
      filePath: path,
      env,
      userText: user.text,
      userPath: user.path,
    })
    return composeLanguageModel(options.model, { config, env })
  }
  const app = {
    encode: () => import('./app/encode-patterns.ts'),
    consolidate: () => import('./app/consolidate-patterns.ts'),
    prune: () => import('./app/prune-patterns.ts'),
    list: () => import('./app/list-patterns.ts'),
  }
  return {
    workspace,
    async encode(request) {
      const { sessionDigestFor } = await import('./compose-pattern-transcripts.ts')
      const digest = await sessionDigestFor(request.transcriptPath)
      const chosen = await model()
      // The offline model's own patterns would be a second, weaker reading of the same material.
      return (await app.encode()).encodePatterns(workspace, {
        digest,
        ...(request.sessionId ? { sessionId: request.sessionId } : {}),
        ...(chosen.name === 'extractive' ? {} : { model: chosen }),
        ...(request.dryRun ? { dryRun: true } : {}),
      })
    },
    consolidate: async (request = {}) =>
      (await app.consolidate()).consolidatePatterns(workspace, {
        model: await model(),
        ...request,
      }),
    prune: async (request = {}) => (await app.prune()).prunePatterns(workspace, request),
    list: async (listOptions = {}) => (await app.list()).listPatterns(workspace, listOptions),
    show: async (domainOrId) => (await app.list()).showPatterns(workspace, domainOrId),
    index: async () => (await app.list()).patternIndex(workspace),
  }
}
