/**
 * Issue 18 item 8: a repository can commit a brain document of any size. SessionStart reads every
 * core document, and a 123 MB one made it take 3.9 s and 1.15 GB. Every brain document read is
 * capped (BRAIN_DOCUMENT_MAX_BYTES): the hook reads only the start, warns once naming the file and
 * the fix, and `sleep run` never rewrites the document it read in part (that would drop the rest).
 * Measured speed and memory are in bench/README.md; here the behaviour is asserted.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BRAIN_DOCUMENT_MAX_BYTES } from '../../src/brain/adapters/fs/fs-brain-paths.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace } from '../support/hook-workspace.ts'
import { spawnHook } from '../support/spawn-hook.ts'

const TAIL = 'Past the cap: the deploy window is Sunday 03:00 UTC.'
let ws: HookWorkspace
let memory: string

beforeAll(async () => {
  await ensureBuilt()
  ws = createHookWorkspace()
  memory = join(ws.root, 'core', '2.memory.md')
  mkdirSync(join(ws.root, 'core'), { recursive: true })
  writeFileSync(memory, '# Memory\n\n- The deploy target is eu-west-1.\n')
  const filler = '- The connection pool holds 40 clients; raise it only after measuring.\n'.repeat(
    10_000,
  )
  while (statSync(memory).size < 6 * BRAIN_DOCUMENT_MAX_BYTES) appendFileSync(memory, filler)
  appendFileSync(memory, `- ${TAIL}\n`)
}, 120_000)

afterAll(() => ws?.dispose())

describe('a brain document over the cap', () => {
  it('SessionStart reads only its start and warns once, naming the file and the fix', async () => {
    const run = await spawnHook(ws, 'session-start', {
      text: JSON.stringify({
        session_id: 's-big',
        cwd: ws.project,
        hook_event_name: 'SessionStart',
      }),
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('eu-west-1')
    expect(run.stdout).not.toContain(TAIL)
    const warnings = run.stderr.split('\n').filter((line) => line.includes('2.memory.md'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/is 24\.\d MB, over the 4\.0 MB a brain document may hold/)
    expect(warnings[0]).toContain('Shorten it')
  }, 60_000)

  it('sleep run leaves it whole rather than rewriting what it read in part', async () => {
    const before = statSync(memory).size
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [SOMNUS_BIN, 'sleep', 'run'], {
        cwd: ws.project,
        env: { PATH: process.env.PATH ?? '', HOME: ws.home },
        stdio: 'ignore',
      })
      child.on('error', reject)
      child.on('exit', () => resolve())
    })
    expect(statSync(memory).size).toBe(before)
    expect(readFileSync(memory, 'utf8').endsWith(`- ${TAIL}\n`)).toBe(true)
  }, 120_000)
})
