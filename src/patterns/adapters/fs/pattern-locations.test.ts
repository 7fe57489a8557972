import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  autoMemoryDirOf,
  patternProjectId,
  projectRootOf,
  sanitizeProjectPath,
} from './pattern-locations.ts'

function scratch() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-locations-')))
  const repo = join(base, 'my_repo.v2')
  mkdirSync(join(repo, '.git', 'worktrees', 'feature'), { recursive: true })
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true })
  const worktree = join(base, 'feature-tree')
  mkdirSync(join(worktree, 'lib'), { recursive: true })
  writeFileSync(join(worktree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'feature')}\n`)
  // What `git worktree add` writes in the repository: the way back, and the common folder.
  writeFileSync(join(repo, '.git', 'worktrees', 'feature', 'gitdir'), `${join(worktree, '.git')}\n`)
  writeFileSync(join(repo, '.git', 'worktrees', 'feature', 'commondir'), '../..\n')
  const home = join(base, 'home')
  mkdirSync(join(home, '.claude'), { recursive: true })
  return { base, repo, worktree, home }
}

describe('pattern locations', () => {
  it('the project is the git root; its id is 16 hex of its SHA-256 (seed 002)', () => {
    const { repo } = scratch()
    expect(projectRootOf(join(repo, 'src', 'deep'))).toBe(repo)
    expect(patternProjectId(repo)).toBe(
      createHash('sha256').update(repo).digest('hex').slice(0, 16),
    )
  })

  it("auto memory: Claude Code's sanitized main git root, shared by worktrees", () => {
    const { repo, worktree, home } = scratch()
    const expected = join(home, '.claude', 'projects', repo.replace(/[^a-zA-Z0-9]/g, '-'), 'memory')
    expect(autoMemoryDirOf(repo, { HOME: home })).toBe(expected)
    expect(autoMemoryDirOf(projectRootOf(join(worktree, 'lib')), { HOME: home })).toBe(expected)
  })

  it('honours the override variables and settings, but never the shared project settings', () => {
    const { repo, home } = scratch()
    expect(
      autoMemoryDirOf(repo, { HOME: home, CLAUDE_COWORK_MEMORY_PATH_OVERRIDE: '/srv/memory' }),
    ).toBe('/srv/memory')
    expect(autoMemoryDirOf(repo, { HOME: home, CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' })).toBeNull()
    expect(autoMemoryDirOf(repo, { HOME: home, CLAUDE_CODE_REMOTE_MEMORY_DIR: '/remote' })).toBe(
      join('/remote', 'projects', sanitizeProjectPath(repo), 'memory'),
    )
    mkdirSync(join(repo, '.claude'))
    writeFileSync(
      join(repo, '.claude', 'settings.json'),
      JSON.stringify({ autoMemoryDirectory: '/evil' }),
    )
    expect(autoMemoryDirOf(repo, { HOME: home })).not.toBe('/evil')
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ autoMemoryDirectory: '~/notes/memory' }),
    )
    expect(autoMemoryDirOf(repo, { HOME: home })).toBe(join(home, 'notes', 'memory'))
    writeFileSync(
      join(repo, '.claude', 'settings.local.json'),
      JSON.stringify({ autoMemoryEnabled: false }),
    )
    expect(autoMemoryDirOf(repo, { HOME: home })).toBeNull()
  })

  it('long paths: 200 characters, a dash and a hash', () => {
    const long = `/${'a'.repeat(250)}`
    expect(sanitizeProjectPath('/home/me/app.v2')).toBe('-home-me-app-v2')
    expect(sanitizeProjectPath(long)).toMatch(/^-a{199}-[0-9a-z]+$/)
  })
})
