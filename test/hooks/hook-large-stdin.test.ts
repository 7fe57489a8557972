/**
 * A large hook payload, as a real process reads it (issue 18, item 8): the reader is linear in
 * the input (it re-parsed everything at every `}`, 8 MB took 8 s and 24 MB over a minute), and a
 * payload over the cap is refused with a clear log line instead of being read without end.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { HOOK_INPUT_MAX_BYTES } from '../../src/surfaces/hooks/hook-input.ts'
import { ensureBuilt } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace, readLedger } from '../support/hook-workspace.ts'
import { spawnHook } from '../support/spawn-hook.ts'

/** Far more than a linear read needs, far less than the quadratic one took. */
const GENEROUS_MS = 15_000

function stopWith(ws: HookWorkspace, sessionId: string, message: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: null,
    cwd: ws.project,
    hook_event_name: 'Stop',
    last_assistant_message: message,
  })
}

describe('a hook given a large stdin', () => {
  let ws: HookWorkspace | undefined
  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)
  afterEach(() => ws?.dispose())

  it('reads 24 MB full of `}` in linear time and records the turn', async () => {
    ws = createHookWorkspace()
    const message = `Done ${'}'.repeat(24 * 1024 * 1024)}`
    const run = await spawnHook(ws, 'stop', { text: stopWith(ws, 'braces', message) })
    expect(run.code).toBe(0)
    expect(run.exitAfterMs).toBeLessThan(GENEROUS_MS)
    expect(readLedger(ws).sessions.map((session) => session.session_id)).toEqual(['braces'])
  }, 60_000)

  it('refuses a payload over the cap, says so in the log, and exits at once', async () => {
    ws = createHookWorkspace()
    const message = 'x'.repeat(HOOK_INPUT_MAX_BYTES + 1024)
    const run = await spawnHook(ws, 'stop', { text: stopWith(ws, 'huge', message) })
    expect(run.code).toBe(0)
    expect(run.exitAfterMs).toBeLessThan(GENEROUS_MS)
    const log = readFileSync(join(ws.root, 'state', '.somnus-hook.log'), 'utf8')
    expect(log).toMatch(/stdin over 33554432 bytes: refused/)
    expect(existsSync(ws.ledgerPath)).toBe(false)
  }, 60_000)
})
