/**
 * Where pattern learning reads and writes, found as seed 002 and Claude Code define it
 * (docs/design/origins.md): the project root is the git root (else the folder itself); patterns
 * live in user scope under `<patterns dir>/<16 hex of SHA-256(main repository root)>/` (seed 002
 * item 9, keyed on the main repository so a repository's worktrees share one folder); auto memory
 * is where Claude Code itself looks (research/seed-systems.md 9.2):
 * `CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`, else the `autoMemoryDirectory` setting of the user's or the
 * project's local settings (never the shared project settings), else
 * `<CLAUDE_CODE_REMOTE_MEMORY_DIR or ~/.claude>/projects/<sanitized git root>/memory/`. Seed 002
 * says that folder name is a hash; it is not (9.1).
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import { sha256Hex } from '../../../engine/core/sha256-hex.ts'

/** The project root for `cwd`: the nearest folder above with `.git` (a worktree's too), else `cwd`. */
export function projectRootOf(cwd: string): string {
  const start = canonical(cwd)
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder
    if (dirname(folder) === folder) return start
  }
}

/**
 * The root of the main repository `projectRoot` belongs to, found as git finds its common
 * directory, by reading files and never running git (the SessionStart hook asks for it): a
 * worktree's `.git` file names its folder in the repository (`gitdir: <main>/.git/worktrees/<name>`),
 * whose `commondir` leads to the repository's `.git`. Claude Code's auto memory keys on it, and so
 * does the pattern folder, so the worktrees of one repository share both. A `.git` file that git
 * did not write for this folder (the repository's folder for it does not name it back) is not
 * trusted, and neither is anything else unexpected: the folder is then its own project.
 */
export function mainRepositoryRootOf(projectRoot: string): string {
  const dotGit = join(projectRoot, '.git')
  let text: string
  try {
    text = readFileSync(dotGit, 'utf8')
  } catch {
    // A `.git` folder (EISDIR): this is the main repository. None: no repository.
    return projectRoot
  }
  const gitdir = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim()
  if (!gitdir) return projectRoot
  const admin = resolve(projectRoot, gitdir)
  try {
    const back = readFileSync(join(admin, 'gitdir'), 'utf8').trim()
    if (canonical(resolve(admin, back)) !== canonical(dotGit)) return projectRoot
  } catch {
    // No way back: a submodule (its own repository) or a `.git` file pointing anywhere.
    return projectRoot
  }
  let common = admin
  try {
    common = resolve(admin, readFileSync(join(admin, 'commondir'), 'utf8').trim())
  } catch {
    // An old git without `commondir`: the admin folder sits in `<common>/worktrees/<name>`.
    common = dirname(dirname(admin))
  }
  // `git worktree add` keeps the admin folder in `<common>/worktrees/`: a checkout whose own
  // files name it its admin folder (`gitdir: .`) must not choose the repository it belongs to.
  if (canonical(dirname(admin)) !== canonical(join(common, 'worktrees'))) return projectRoot
  return canonical(basename(common) === '.git' ? dirname(common) : common)
}

/** The roots of the repository's other worktrees that git knows (for moving their old pattern folders). */
export function worktreeRootsOf(mainRoot: string): string[] {
  const admin = join(mainRoot, '.git', 'worktrees')
  let names: string[]
  try {
    names = readdirSync(admin)
  } catch {
    return []
  }
  return names.flatMap((name) => {
    try {
      const dotGit = resolve(
        join(admin, name),
        readFileSync(join(admin, name, 'gitdir'), 'utf8').trim(),
      )
      return basename(dotGit) === '.git' ? [canonical(dirname(dotGit))] : []
    } catch {
      return []
    }
  })
}

/** Seed 002's project id: the first 16 hex digits of the SHA-256 of the project root. */
export function patternProjectId(projectRoot: string): string {
  return sha256Hex(projectRoot).slice(0, 16)
}

/** The user-scope patterns folder of all projects: the setting, else `~/.claude/rem/patterns`. */
export function patternsBaseDir(
  setting: string | null,
  env: Record<string, string | undefined>,
): string {
  const home = env.HOME || homedir()
  if (setting === null) return join(home, '.claude', 'rem', 'patterns')
  return setting.startsWith('~/') ? join(home, setting.slice(2)) : resolve(setting)
}

/**
 * Claude Code's project folder name: every character but ASCII letters and digits becomes `-`;
 * past 200 characters, the first 200, `-` and a djb2 hash in base 36 (what the Node build uses).
 */
export function sanitizeProjectPath(path: string): string {
  const sanitized = path.replace(/[^a-zA-Z0-9]/g, '-')
  if (sanitized.length <= 200) return sanitized
  let hash = 0
  for (let index = 0; index < path.length; index += 1)
    hash = ((hash << 5) - hash + path.charCodeAt(index)) | 0
  return `${sanitized.slice(0, 200)}-${Math.abs(hash).toString(36)}`
}

/** The auto-memory folder Claude Code uses for `projectRoot`, or null when auto memory is off. */
export function autoMemoryDirOf(
  projectRoot: string,
  env: Record<string, string | undefined>,
): string | null {
  if (truthy(env.CLAUDE_CODE_DISABLE_AUTO_MEMORY) || truthy(env.CLAUDE_CODE_SIMPLE)) return null
  const override = env.CLAUDE_COWORK_MEMORY_PATH_OVERRIDE
  if (override) return resolve(override)
  const home = env.HOME || homedir()
  const claudeHome = env.CLAUDE_CONFIG_DIR || join(home, '.claude')
  // Later scopes win, as in Claude Code: user settings, then the project's local settings.
  const scopes = [
    join(claudeHome, 'settings.json'),
    join(projectRoot, '.claude', 'settings.local.json'),
  ]
  let enabled = true
  let directory: string | null = null
  for (const path of scopes) {
    const settings = readJson(path)
    if (typeof settings.autoMemoryEnabled === 'boolean') enabled = settings.autoMemoryEnabled
    if (typeof settings.autoMemoryDirectory === 'string' && settings.autoMemoryDirectory !== '') {
      const value = settings.autoMemoryDirectory
      directory = value.startsWith('~/')
        ? join(home, value.slice(2))
        : isAbsolute(value)
          ? value
          : resolve(dirname(path), value)
    }
  }
  if (!enabled) return null
  if (directory !== null) return directory
  const base = env.CLAUDE_CODE_REMOTE_MEMORY_DIR || claudeHome
  return join(base, 'projects', sanitizeProjectPath(mainRepositoryRootOf(projectRoot)), 'memory')
}

function readJson(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim())
}

function canonical(path: string): string {
  try {
    return realpathSync.native(path).normalize('NFC')
  } catch {
    return resolve(path).normalize('NFC')
  }
}
