/**
 * Recall over a brain on disk, wired: two shelves, each a MiniSearch index in a dot-file of
 * `_agent_context/state/` (git ignores every dot-file there): `brain` (core files, knowledge,
 * digests, tasks, features, changelog, patterns: small, and all the prompt hook loads) and
 * `transcripts` (the project's Claude Code transcripts still on disk: large). A shelf is brought
 * up to date before it is asked (only changed files are indexed again) and at every sleep run.
 */
import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { openRecallShelf } from '../engine/adapters/search/recall-shelf-file.ts'
import { type MemoryHit, recallMemory } from '../engine/app/recall/recall-memory.ts'
import {
  type RefreshReport,
  refreshRecallShelf,
} from '../engine/app/recall/refresh-recall-shelf.ts'
import type { RecallQuery } from '../engine/ports/recall.ts'
import { sanitizeProjectPath } from '../patterns/adapters/fs/pattern-locations.ts'
import { patternSettingsOrOff } from '../patterns/compose-pattern-hooks.ts'
import { patternFolderOf } from '../patterns/compose-patterns.ts'
import { type BrainShelfName, brainRecallSources } from './adapters/fs/brain-recall-sources.ts'

export type { MemoryHit } from '../engine/app/recall/recall-memory.ts'
export type { BrainShelfName } from './adapters/fs/brain-recall-sources.ts'

/** Every shelf, in the order they are asked. */
export const BRAIN_SHELVES: readonly BrainShelfName[] = ['brain', 'transcripts']

/** The kinds of memory `--in` can name, and the shelf each lives on. */
export const RECALL_KINDS: Record<string, BrainShelfName> = {
  core: 'brain',
  sessions: 'brain',
  knowledge: 'brain',
  patterns: 'brain',
  transcripts: 'transcripts',
}

/** Where a brain is, and how to report problems that do not stop a recall. */
export interface BrainRecallOptions {
  /** The `_agent_context` folder. */
  root: string
  /** The project folder that holds it. */
  projectDir: string
  env: Record<string, string | undefined>
  warn: (message: string) => void
  /** Transcripts larger than this are not indexed. */
  maxTranscriptBytes: number
}

/** Recall over one brain. */
export interface BrainRecall {
  /**
   * The best hits for `query` on `shelves` (default: every shelf), each shelf refreshed first
   * unless `refresh` is false (the prompt hook: then a shelf never built gives nothing).
   */
  recall(
    query: RecallQuery,
    shelves?: readonly BrainShelfName[],
    options?: { refresh?: boolean },
  ): Promise<MemoryHit[]>
  /** Indexes what changed on `shelves` (default: every shelf) and saves them. */
  refresh(shelves?: readonly BrainShelfName[]): Promise<Record<string, RefreshReport>>
  /** The text behind a hit's id: the section of its line, a whole file, a transcript message. */
  read(id: string): Promise<string | null>
}

/** The dot-file of each shelf in `state/`. */
export function shelfFileName(shelf: BrainShelfName): string {
  return `.recall-${shelf}.json`
}

/** Recall over the brain `options` names. */
export function openBrainRecall(options: BrainRecallOptions): BrainRecall {
  // Worked out when first asked: the prompt hook's hits are mostly brain files, and finding the
  // pattern folder (settings, the project's root, a hash) or the transcripts' folder (a realpath)
  // cost it ~3-5 ms it rarely needs.
  let patternsDir: string | null | undefined
  let transcriptsDir: string | undefined
  const places = {
    root: options.root,
    get patternsDir() {
      if (patternsDir === undefined) patternsDir = patternsDirOf(options)
      return patternsDir
    },
    get transcriptsDir() {
      transcriptsDir ??= transcriptsDirOf(options.projectDir, options.env)
      return transcriptsDir
    },
    maxTranscriptBytes: options.maxTranscriptBytes,
  }
  const opened = new Map<BrainShelfName, ReturnType<typeof openShelf>>()
  const openShelf = (name: BrainShelfName) => ({
    shelf: openRecallShelf(options.root, `state/${shelfFileName(name)}`),
    sources: brainRecallSources(places, name),
  })
  const shelfOf = (name: BrainShelfName) => {
    let found = opened.get(name)
    if (found === undefined) {
      found = openShelf(name)
      opened.set(name, found)
    }
    return found
  }
  const refresh = async (shelves: readonly BrainShelfName[] = BRAIN_SHELVES) => {
    const reports: Record<string, RefreshReport> = {}
    for (const name of shelves) {
      const { shelf, sources } = shelfOf(name)
      reports[name] = await refreshRecallShelf(shelf, sources, options.warn)
    }
    return reports
  }
  return {
    refresh,
    async recall(query, shelves = BRAIN_SHELVES, recallOptions = {}) {
      const refreshing = recallOptions.refresh !== false
      if (refreshing) await refresh(shelves)
      return recallMemory(
        shelves.flatMap((name) => {
          const { shelf, sources } = shelfOf(name)
          return refreshing || shelf.existed ? [{ index: shelf.index, sources }] : []
        }),
        query,
      )
    },
    async read(id) {
      const shelf: BrainShelfName = id.includes('#') ? 'transcripts' : 'brain'
      const { sources } = shelfOf(shelf)
      return sources.read(id)
    },
  }
}

/** The project's pattern folder, or null when pattern settings cannot be read. */
function patternsDirOf(options: BrainRecallOptions): string | null {
  try {
    const settings = patternSettingsOrOff(options.root, options.env, options.warn)
    return patternFolderOf(options.projectDir, options.env, settings).patternsDir
  } catch {
    return null
  }
}

/**
 * Claude Code's folder of the project's transcripts: `<config>/projects/<sanitized cwd>`, keyed by
 * the folder Claude was started in (the project folder, as its real path).
 */
export function transcriptsDirOf(
  projectDir: string,
  env: Record<string, string | undefined>,
): string {
  const claudeHome = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude')
  let real = projectDir
  try {
    real = realpathSync.native(projectDir)
  } catch {
    // A project folder that is gone has no transcripts to find either.
  }
  return join(claudeHome, 'projects', sanitizeProjectPath(real))
}
