/**
 * A hook that cannot write the brain's log (a directory in its place, a read-only state folder,
 * a full disk) falls back to `~/.somnus/hook.log`, naming the log it could not write, and still
 * exits 0: a lost turn always leaves a trace. Real hook processes, HOME at a temporary folder.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace } from '../support/hook-workspace.ts'
import { spawnHook } from '../support/spawn-hook.ts'

describe('the hook log when the brain cannot take it', () => {
  let ws: HookWorkspace

  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  afterEach(() => ws?.dispose())

  it('writes the lines to ~/.somnus/hook.log, saying which log failed, and exits 0', async () => {
    ws = createHookWorkspace()
    const brainLog = join(ws.root, 'state', '.somnus-hook.log')
    mkdirSync(brainLog)
    const run = await spawnHook(ws, 'stop', { text: '{"session_id": "s1", "cwd": ' })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('')
    const homeLog = join(ws.home, '.somnus', 'hook.log')
    expect(existsSync(homeLog)).toBe(true)
    const lines = readFileSync(homeLog, 'utf8').trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/ stop stdin is not JSON /)
    expect(lines[1]).toContain(`could not write the hook log ${brainLog}`)
    expect(lines[1]).toContain('EISDIR')
  }, 30_000)

  it('keeps the trace of a Stop that could record nothing: the state folder is a file', async () => {
    ws = createHookWorkspace()
    rmSync(join(ws.root, 'state'), { recursive: true })
    writeFileSync(join(ws.root, 'state'), 'not a folder')
    const payload = { session_id: 's1', transcript_path: null, cwd: ws.project }
    const run = await spawnHook(ws, 'stop', { text: JSON.stringify(payload) })
    expect(run.code).toBe(0)
    const homeLog = readFileSync(join(ws.home, '.somnus', 'hook.log'), 'utf8')
    expect(homeLog).toMatch(/ stop failed: .*_agent_context.state/)
    expect(homeLog).toContain('could not write the hook log')
  }, 30_000)
})
