/**
 * Temporary files a killed ledger writer left (`.sleep.json.<pid>.<n>.<random>`) are swept by the
 * next command that updates the ledger, on a real process; files that only look alike stay.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

const base = mkdtempSync(join(tmpdir(), 'somnus-sweep-'))
beforeAll(ensureBuilt, 300_000)
afterAll(() => rmSync(base, { recursive: true, force: true }))

it('a ledger update sweeps temporary files left by killed writers, and nothing else', () => {
  const root = join(base, '_agent_context')
  const state = join(root, 'state')
  mkdirSync(state, { recursive: true })
  const left = ['.sleep.json.4242.1.k3j9x0', '.sleep-history.json.77.12.a', '.sleep.json.1.2.']
  const kept = [
    'task.md',
    '.gitkeep',
    '.sleep-run.json',
    '.somnus-hook.log',
    '.sleep.json.corrupt-2026-03-01T12-00-00.000Z',
    '.sleep.json.notes',
    '.sleep.json.4242.x.k3j9x0',
    'my.sleep.json.4242.1.k3j9x0',
    'task.md.4242.1.k3j9x0',
  ]
  for (const name of [...left, ...kept]) writeFileSync(join(state, name), 'x')
  const run = spawnSync(process.execPath, [SOMNUS_BIN, 'bookmark', 'add', 'sweep me'], {
    cwd: base,
    env: { ...process.env, SOMNUS_CONTEXT_DIR: root },
    encoding: 'utf8',
  })
  expect(run.stderr).toBe('')
  expect(run.status).toBe(0)
  expect(readdirSync(state).sort()).toEqual([...kept, '.sleep.json'].sort())
})
