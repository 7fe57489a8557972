/**
 * Ordinary faults of the machine, on real processes and real file systems: each is one line on
 * stderr naming the path and a fix, exit 1, no stack trace. Read-only and full disks are tmpfs
 * mounts (chmod does not stop root); those tests are skipped where mounting is not permitted.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

const folders: string[] = []
const mounts: string[] = []

beforeAll(ensureBuilt, 300_000)
afterAll(() => {
  for (const mount of mounts) spawnSync('umount', [mount])
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'somnus-fault-'))
  folders.push(folder)
  return folder
}

/** `somnus <args>` as a real process, in `cwd`, with the brain at `root` when given. */
function somnus(args: string[], cwd: string, root?: string): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, SOMNUS_CONTEXT_DIR: root }
  if (root === undefined) delete env.SOMNUS_CONTEXT_DIR
  return spawnSync(process.execPath, [SOMNUS_BIN, ...args], { cwd, env, encoding: 'utf8' })
}

/** Exit 1 and one line on stderr, no stack and no "unexpected error", matching every pattern. */
function expectOneLineFault(run: SpawnSyncReturns<string>, ...patterns: RegExp[]): void {
  expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /)
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
  for (const pattern of patterns) expect(run.stderr).toMatch(pattern)
  expect(run.status).toBe(1)
}

/** A tmpfs of `size` mounted on a new folder, or null when this machine does not allow it. */
function tmpfs(size: string): string | null {
  const folder = tempFolder()
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder])
  if (mounted.status !== 0) return null
  mounts.push(folder)
  return folder
}

const canMount = (() => {
  const probe = mkdtempSync(join(tmpdir(), 'somnus-mount-probe-'))
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status === 0
  if (mounted) spawnSync('umount', [probe])
  rmSync(probe, { recursive: true, force: true })
  return mounted
})()

describe('environment faults: one line naming the path and the fix', () => {
  it('init with `.claude` a file: refused before anything is made', () => {
    const project = tempFolder()
    writeFileSync(join(project, '.claude'), 'not a folder\n')
    const run = somnus(['init', project], project)
    expectOneLineFault(run, /\.claude is a file/, /Move or rename/)
    expect(existsSync(join(project, '_agent_context'))).toBe(false)
    expect(readdirSync(project)).toEqual(['.claude'])
  })

  it('`.sleep.json` a folder', () => {
    const root = join(tempFolder(), '_agent_context')
    mkdirSync(join(root, 'state', '.sleep.json'), { recursive: true })
    const run = somnus(['bookmark', 'add', 'hello'], root, root)
    expectOneLineFault(run, /state\/\.sleep\.json: it is a folder where Somnus expects a file/)
  })

  it('the lock `state/.sleep.json.lock` a file: at once, not after the 15 s lock wait', () => {
    const root = join(tempFolder(), '_agent_context')
    mkdirSync(join(root, 'state'), { recursive: true })
    writeFileSync(join(root, 'state', '.sleep.json.lock'), '')
    const started = Date.now()
    const run = somnus(['bookmark', 'add', 'hello'], root, root)
    expectOneLineFault(run, /\.sleep\.json\.lock is a file/, /Delete it/)
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it.skipIf(!canMount)('a read-only file system', () => {
    const project = tmpfs('1m') as string
    expect(somnus(['init', project, '--plugin'], project).status).toBe(0)
    expect(spawnSync('mount', ['-o', 'remount,ro', project]).status).toBe(0)
    const root = join(project, '_agent_context')
    const run = somnus(['bookmark', 'add', 'hello'], project, root)
    expectOneLineFault(run, new RegExp(`${root}/state/`), /read-only \(EROFS\)/, /Remount/)
  })

  it.skipIf(!canMount)('a full disk', () => {
    const project = tmpfs('256k') as string
    expect(somnus(['init', project, '--plugin'], project).status).toBe(0)
    // Fill what is left, so the ledger's next write finds no room.
    spawnSync('dd', ['if=/dev/zero', `of=${join(project, 'filler')}`, 'bs=4k'])
    const root = join(project, '_agent_context')
    const run = somnus(['bookmark', 'add', 'x'.repeat(5_000)], project, root)
    expectOneLineFault(run, new RegExp(`${root}/state/\\.sleep\\.json:`), /disk is full/, /Free/)
  })

  it.skipIf(!canMount)('init on a read-only file system leaves nothing behind', () => {
    const project = tmpfs('64k') as string
    expect(spawnSync('mount', ['-o', 'remount,ro', project]).status).toBe(0)
    const run = somnus(['init', project], project)
    expectOneLineFault(run, /EROFS/, /Remount/)
    expect(readdirSync(project)).toEqual([])
  })
})
