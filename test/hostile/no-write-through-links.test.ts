/**
 * Issue 18 item 2: every file Somnus writes or appends is opened without following a link, and a
 * log line is inert text. A hostile repository plants, in `_agent_context/state/`, a symlinked or
 * hard-linked hook log, a FIFO in its place, a symlinked folder, and a `somnus.json` whose unknown
 * key carries `$(…)` and a newline; real hook processes run against it.
 */

import { execFileSync } from 'node:child_process'
import {
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace } from '../support/hook-workspace.ts'
import { spawnHook } from '../support/spawn-hook.ts'

let ws: HookWorkspace
beforeAll(ensureBuilt, 300_000)
afterEach(() => ws?.dispose())

/** `~/.bashrc` of the user, outside the project. */
function plantBashrc(workspace: HookWorkspace): { path: string; unchanged: () => void } {
  const path = join(workspace.home, '.bashrc')
  writeFileSync(path, 'export PATH=/usr/bin\n')
  return {
    path,
    unchanged: () => {
      expect(readFileSync(path, 'utf8')).toBe('export PATH=/usr/bin\n')
      expect(statSync(path).nlink).toBeLessThanOrEqual(2)
    },
  }
}

const brainLog = (workspace: HookWorkspace) => join(workspace.root, 'state', '.somnus-hook.log')
const homeLog = (workspace: HookWorkspace) => join(workspace.home, '.somnus', 'hook.log')
/** A Stop whose payload is not JSON: it always has a line to log. */
const badStop = { text: '{"session_id": "s1", "cwd": ' }

describe('the hook log is never written through a link', () => {
  it('a symlinked hook log: the target is untouched, the lines go to ~/.somnus/hook.log', async () => {
    ws = createHookWorkspace()
    const bashrc = plantBashrc(ws)
    symlinkSync(bashrc.path, brainLog(ws))
    for (const event of ['stop', 'session-start', 'pre-compact']) {
      const run = await spawnHook(ws, event, badStop)
      expect(run.code).toBe(0)
    }
    bashrc.unchanged()
    expect(readFileSync(homeLog(ws), 'utf8')).toMatch(/could not write the hook log .*symlink/)
  })

  it('a hard link to a file outside: untouched', async () => {
    ws = createHookWorkspace()
    const bashrc = plantBashrc(ws)
    linkSync(bashrc.path, brainLog(ws))
    expect((await spawnHook(ws, 'stop', badStop)).code).toBe(0)
    bashrc.unchanged()
    expect(readFileSync(homeLog(ws), 'utf8')).toMatch(/hard link/)
  })

  it('a FIFO named like the log: the hook neither blocks nor writes to it', async () => {
    ws = createHookWorkspace()
    execFileSync('mkfifo', [brainLog(ws)])
    const run = await spawnHook(ws, 'stop', badStop)
    expect(run.code).toBe(0)
    expect(run.exitAfterMs).toBeLessThan(10_000)
    expect(readFileSync(homeLog(ws), 'utf8')).toMatch(/FIFO|not a plain file/)
  })

  it('a symlinked state folder, even one pointing inside the brain: no write goes through it', async () => {
    ws = createHookWorkspace()
    const elsewhere = join(ws.root, 'knowledge')
    mkdirSync(elsewhere)
    rmSync(join(ws.root, 'state'), { recursive: true })
    symlinkSync(elsewhere, join(ws.root, 'state'))
    const run = await spawnHook(ws, 'stop', {
      text: JSON.stringify({ session_id: 's1', cwd: ws.project, transcript_path: null }),
    })
    expect(run.code).toBe(0)
    expect(readdirSync(elsewhere)).toEqual([])
  })
})

describe('log lines are inert text', () => {
  it("an unknown key's `$(…)`, backquotes and newline never reach a log line as they are", async () => {
    ws = createHookWorkspace({
      config: { patterns: { 'x\n$(touch /tmp/owned)`id`': 1 } },
    })
    const run = await spawnHook(ws, 'stop', {
      text: JSON.stringify({ session_id: 's1', cwd: ws.project, transcript_path: null }),
    })
    expect(run.code).toBe(0)
    const log = readFileSync(brainLog(ws), 'utf8')
    expect(log).not.toContain('$(')
    expect(log).not.toContain('`')
    for (const line of log.trimEnd().split('\n')) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\S+ stop /)
  })
})
