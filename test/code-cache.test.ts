/**
 * The CLI and the hooks start through a V8 code cache in ~/.somnus/cache (src/surfaces/cached-bundle.ts).
 * V8 trusts a cache's contents: a damaged one crashes the process as it loads. The loaders must
 * get past that by themselves (one run at most may die), and many processes must share a cache.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

beforeAll(ensureBuilt, 300_000)

function run(home: string, cwd: string, args: string[]) {
  return spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home },
  })
}

function cacheFiles(home: string): string[] {
  const folder = join(home, '.somnus', 'cache')
  return existsSync(folder) ? readdirSync(folder).map((name) => join(folder, name)) : []
}

/** Flips bytes all through the file's payload (its header left alone, so V8 accepts it). */
function damage(file: string): void {
  const bytes = readFileSync(file)
  let seed = 23
  for (let count = 0; count < 64; count++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    const at = 256 + (seed % (bytes.length - 256))
    bytes[at] = (bytes[at] as number) ^ 0xff
  }
  writeFileSync(file, bytes)
}

describe('the code cache', () => {
  it.each([
    ['the CLI', ['sleep', 'debt'], '0\n'],
    ['a hook', ['hook', 'session-end'], ''],
  ])(
    '%s gets past a damaged cache: one run at most dies, then it works and the cache is remade',
    (_, args, output) => {
      const home = mkdtempSync(join(tmpdir(), 'somnus-cache-home-'))
      const project = mkdtempSync(join(tmpdir(), 'somnus-cache-project-'))
      expect(run(home, project, ['init']).status).toBe(0)
      expect(run(home, project, args).stdout).toBe(output)
      const written = cacheFiles(home).filter((file) => file.endsWith('.bin'))
      expect(written.length).toBeGreaterThan(0)
      for (const file of written) damage(file)
      run(home, project, args) // may die in V8's deserializer
      const after = run(home, project, args)
      expect(after.status).toBe(0)
      expect(after.stdout).toBe(output)
      expect(cacheFiles(home).filter((file) => file.endsWith('.loading'))).toEqual([])
      const again = run(home, project, args)
      expect(again.status).toBe(0)
      expect(again.stdout).toBe(output)
    },
  )

  it('is shared by 16 processes starting at once: every one answers', async () => {
    const home = mkdtempSync(join(tmpdir(), 'somnus-cache-home-'))
    const project = mkdtempSync(join(tmpdir(), 'somnus-cache-project-'))
    expect(run(home, project, ['init']).status).toBe(0)
    const once = () =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [SOMNUS_BIN, 'sleep', 'debt'], {
          cwd: project,
          env: { PATH: process.env.PATH, HOME: home },
        })
        let stdout = ''
        child.stdout.on('data', (chunk) => {
          stdout += chunk
        })
        child.on('close', (code) => resolve({ code, stdout }))
      })
    for (let wave = 0; wave < 2; wave++) {
      const runs = await Promise.all(Array.from({ length: 16 }, once))
      expect(runs).toEqual(Array.from({ length: 16 }, () => ({ code: 0, stdout: '0\n' })))
    }
    expect(cacheFiles(home).filter((file) => !file.endsWith('.bin'))).toEqual([])
  }, 120_000)
})
