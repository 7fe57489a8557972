/**
 * Nothing written outside the brain, on real processes: planted symlinks (a file, a folder, the
 * state folder) pointing out of `_agent_context`. Each command fails with one OUTSIDE_BRAIN line
 * and the file outside keeps its bytes and mode.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

const folders: string[] = []
beforeAll(ensureBuilt, 300_000)
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** A project with a brain made by `somnus init`, and beside it a folder holding a `~/.bashrc`. */
function plantedProject() {
  const base = mkdtempSync(join(tmpdir(), 'somnus-confine-e2e-'))
  folders.push(base)
  const project = join(base, 'project')
  const home = join(base, 'home')
  mkdirSync(project)
  mkdirSync(home)
  const bashrc = join(home, '.bashrc')
  writeFileSync(bashrc, 'export PATH=/usr/bin\n')
  chmodSync(bashrc, 0o744)
  const somnus = (...args: string[]) =>
    spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
      cwd: project,
      env: { ...process.env, SOMNUS_CONTEXT_DIR: undefined },
      encoding: 'utf8',
    })
  expect(somnus('init', '--plugin').status).toBe(0)
  const root = join(project, '_agent_context')
  const unchanged = () => {
    expect(readFileSync(bashrc, 'utf8')).toBe('export PATH=/usr/bin\n')
    expect(statSync(bashrc).mode & 0o7777).toBe(0o744)
    expect(readdirSync(home)).toEqual(['.bashrc'])
  }
  const refused = (run: ReturnType<typeof somnus>) => {
    // `sleep run` reports its progress first; the refusal is the last line, without a stack.
    expect(run.stderr.trimEnd().split('\n').pop()).toMatch(
      /^somnus: Refused .*outside .*_agent_context.*remove the symlink/,
    )
    expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /)
    expect(run.status).toBe(1)
  }
  return { root, home, bashrc, somnus, unchanged, refused }
}

describe('planted symlinks out of the brain', () => {
  it('core/2.memory.md -> ~/.bashrc: `sleep run` refuses, the target is untouched', () => {
    const { root, bashrc, somnus, unchanged, refused } = plantedProject()
    rmSync(join(root, 'core/2.memory.md'))
    symlinkSync(bashrc, join(root, 'core/2.memory.md'))
    somnus('bookmark', 'add', 'We decided to use Postgres', '-s', '3')
    refused(somnus('sleep', 'run'))
    unchanged()
  })

  it('state/.sleep.json -> ~/.bashrc: `bookmark add` refuses, the target is untouched', () => {
    const { root, bashrc, somnus, unchanged, refused } = plantedProject()
    rmSync(join(root, 'state/.sleep.json'))
    symlinkSync(bashrc, join(root, 'state/.sleep.json'))
    refused(somnus('bookmark', 'add', 'hello'))
    unchanged()
  })

  it('knowledge/ -> ~: `knowledge create` makes nothing there', () => {
    const { root, home, somnus, unchanged, refused } = plantedProject()
    rmSync(join(root, 'knowledge'), { recursive: true })
    symlinkSync(home, join(root, 'knowledge'))
    refused(somnus('knowledge', 'create', 'bashrc', '--body', 'attacker'))
    unchanged()
  })
})
