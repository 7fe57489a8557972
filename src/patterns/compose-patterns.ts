/**
 * Wires pattern learning (seed 002, docs/design/origins.md) to the disk: the project root, the
 * user-scope pattern folder, Claude Code's auto memory, the settings (`patterns` in the brain's
 * `somnus.json`, when there is a brain) and the lock. Light enough for the hook path: the hooks
 * read the index and roll the gates through here; encoding and consolidation run in a detached
 * `somnus patterns` process.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { findContextRoot } from '../engine/adapters/fs/find-context-root.ts'
import { createFsProjectFiles } from '../engine/adapters/fs/fs-project-files.ts'
import { readSettingsFile, readUserSettings } from '../engine/adapters/fs/settings-file.ts'
import { parseSettingsText, withoutUserOnlyKeys } from '../engine/core/config.ts'
import { type Clock, systemClock } from '../engine/ports/clock.ts'
import { createFsFolderFiles } from './adapters/fs/fs-folder-files.ts'
import { withPatternLock } from './adapters/fs/fs-pattern-lock.ts'
import { migratePatternFolders } from './adapters/fs/pattern-folder-migration.ts'
import {
  autoMemoryDirOf,
  mainRepositoryRootOf,
  patternProjectId,
  patternsBaseDir,
  projectRootOf,
  worktreeRootsOf,
} from './adapters/fs/pattern-locations.ts'
import type { PatternWorkspace } from './app/pattern-workspace.ts'
import { type PatternSettings, resolvePatternSettings } from './core/pattern-settings.ts'

/** How long an encode or consolidation waits for another one of the same project. */
const LOCK_WAIT_MS = 60_000

/** The `patterns` settings of the brain at `contextRoot` (null: no brain, defaults), with the environment's. */
export function readPatternSettings(
  contextRoot: string | null,
  env: Record<string, string | undefined>,
): PatternSettings {
  // The user's own `patterns` (the folder among them) under the repository's, whose `dir` is
  // dropped: a repository never chooses where pattern files are written.
  const user = readUserSettings(env)
  const fromUser = patternsOf(parseSettingsText(user.text, user.path))
  if (contextRoot === null) return resolvePatternSettings(fromUser, env, user.path)
  const path = join(contextRoot, 'somnus.json')
  let text: string | null
  try {
    text = readSettingsFile(path, { followLink: false })
  } catch {
    // Not a plain file: the hooks and the CLI report it (compose.ts); the user's settings here.
    return resolvePatternSettings(fromUser, env, user.path)
  }
  const { kept } = withoutUserOnlyKeys(parseSettingsText(text, path))
  const fromRepository = patternsOf(kept)
  if (fromUser === undefined || !isObject(fromRepository))
    return resolvePatternSettings(fromRepository ?? fromUser, env, path)
  return resolvePatternSettings({ ...(fromUser as object), ...fromRepository }, env, path)
}

/** The `patterns` value of parsed settings, or undefined. */
function patternsOf(settings: unknown): unknown {
  return isObject(settings) ? settings.patterns : undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The brain folder for `cwd`, or null: patterns work without one (defaults then). */
export function findBrainFor(cwd: string, env: Record<string, string | undefined>): string | null {
  return env.SOMNUS_CONTEXT_DIR || findContextRoot(cwd, env.HOME)
}

/**
 * The project that `cwd` is in, its id and its user-scope pattern folder. The id is the seed's
 * hash of the main repository's root, not of the worktree's (the README says so among the
 * departures from seed 002): every worktree of one repository shares one folder, as it shares
 * Claude Code's auto memory, so a lesson learned in three worktrees counts three sessions.
 */
export function patternFolderOf(
  cwd: string,
  env: Record<string, string | undefined>,
  settings: PatternSettings,
): { projectDir: string; projectId: string; patternsDir: string; repositoryRoot: string } {
  const projectDir = projectRootOf(cwd)
  const repositoryRoot = mainRepositoryRootOf(projectDir)
  const projectId = patternProjectId(repositoryRoot)
  return {
    projectDir,
    projectId,
    repositoryRoot,
    patternsDir: join(patternsBaseDir(settings.dir, env), projectId),
  }
}

/** The folders the repository's worktrees had before their folder was the repository's (one id each). */
function worktreeFolders(
  base: string,
  folder: { projectDir: string; repositoryRoot: string },
): string[] {
  const roots = [folder.projectDir, ...worktreeRootsOf(folder.repositoryRoot)]
  return roots
    .filter((root) => root !== folder.repositoryRoot)
    .map((root) => join(base, patternProjectId(root)))
}

/** The pattern workspace of the project that `cwd` is in. */
export function openPatternWorkspace(options: {
  cwd: string
  env: Record<string, string | undefined>
  clock?: Clock
  settings?: PatternSettings
}): PatternWorkspace {
  const settings =
    options.settings ?? readPatternSettings(findBrainFor(options.cwd, options.env), options.env)
  const folder = patternFolderOf(options.cwd, options.env, settings)
  const { projectDir, projectId, patternsDir } = folder
  const memoryDir = autoMemoryDirOf(projectDir, options.env)
  const patterns = createFsFolderFiles(patternsDir)
  const base = patternsBaseDir(settings.dir, options.env)
  return {
    projectDir,
    projectId,
    patternsDir,
    patterns,
    project: createFsProjectFiles(projectDir),
    memory: memoryDir === null ? null : createFsFolderFiles(memoryDir),
    memoryDir,
    settings,
    clock: options.clock ?? systemClock,
    exclusive: (work) => {
      mkdirSync(patternsDir, { recursive: true })
      return withPatternLock(join(patternsDir, '.somnus-patterns.lock'), LOCK_WAIT_MS, async () => {
        // Folders the worktrees had before they shared the repository's: merged in, then set aside.
        await migratePatternFolders(
          worktreeFolders(base, folder),
          { dir: patternsDir, files: patterns },
          createFsFolderFiles,
        )
        return work()
      })
    },
  }
}
