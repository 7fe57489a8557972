/**
 * The ledger lock as a hook meets it, with real processes: a lock dated in the future (clock
 * skew) is stale, a lock a live process keeps fresh is never taken over, and a hook that cannot
 * get the lock gives up inside its Claude Code timeout, logs why, and exits 0.
 */
import { type ChildProcess, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SOMNUS_HOOKS } from '../../src/brain/core/claude-settings.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace, readLedger } from '../support/hook-workspace.ts'
import { holdLock, releaseLock } from '../support/ledger-lock-holder.ts'
import { spawnHook } from '../support/spawn-hook.ts'
import { assistant, text, toolResult, toolUse, user } from '../support/transcript-lines.ts'

function runSomnus(ws: HookWorkspace, args: string[]) {
  return spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
    cwd: ws.project,
    env: { PATH: process.env.PATH, HOME: ws.home },
    encoding: 'utf8',
  })
}

/** An event's timeout as `somnus init` wires it, in ms. */
const timeoutMsOf = (verb: string) =>
  (SOMNUS_HOOKS.find((spec) => spec.verb === verb)?.timeout ?? 0) * 1000
const STOP_TIMEOUT_MS = timeoutMsOf('stop')

function stopPayloadFor(ws: HookWorkspace, sessionId: string, transcriptPath?: string): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: transcriptPath ?? null,
    cwd: ws.project,
    hook_event_name: 'Stop',
    last_assistant_message: 'Done.',
  })
}

describe('a hook and the ledger lock', () => {
  let ws: HookWorkspace
  let holder: ChildProcess | undefined
  const lockPath = () => join(ws.root, 'state', '.sleep.json.lock')
  const brainLog = () => join(ws.root, 'state', '.somnus-hook.log')

  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  afterEach(async () => {
    await releaseLock(holder)
    holder = undefined
    ws?.dispose()
  })

  it('takes over a lock touched an hour in the future: Stop records the session at once', async () => {
    ws = createHookWorkspace()
    mkdirSync(lockPath())
    const future = new Date(Date.now() + 3_600_000)
    utimesSync(lockPath(), future, future)
    const run = await spawnHook(ws, 'stop', { text: stopPayloadFor(ws, 'skewed-clock') })
    expect(run.code).toBe(0)
    expect(run.exitAfterMs).toBeLessThan(STOP_TIMEOUT_MS)
    expect(readLedger(ws).sessions.map((session) => session.session_id)).toEqual(['skewed-clock'])
  }, 30_000)

  it('queues its turn inside its timeout on a lock a live holder keeps fresh; `sleep status` merges it once, pending; SessionStart scores it', async () => {
    ws = createHookWorkspace()
    holder = await holdLock(lockPath())
    const transcript = join(ws.transcripts, 'blocked.jsonl')
    const write = toolUse('blocked-t0', 'Write', { file_path: 'src/a.ts', content: 'x' })
    const stamped = [
      user('Add the loader.'),
      assistant('blocked-m0', [write]),
      toolResult('blocked-t0', 'File created'),
      assistant('blocked-end', [text('Added; tests pass.')]),
    ].map((line) =>
      line.replace(/"timestamp":"[^"]*"/, `"timestamp":"${new Date().toISOString()}"`),
    )
    writeFileSync(transcript, `${stamped.join('\n')}\n`)
    const run = await spawnHook(ws, 'stop', { text: stopPayloadFor(ws, 'blocked', transcript) })
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('')
    expect(run.exitAfterMs).toBeLessThan(STOP_TIMEOUT_MS)
    const log = readFileSync(brainLog(), 'utf8').trim().split('\n')
    expect(log).toHaveLength(1)
    expect(log[0]).toMatch(/ stop the ledger was busy; queued this Stop in the inbox/)
    // Not taken over: the holder still runs, its lock is still there, and the ledger is untouched.
    expect(holder.exitCode).toBeNull()
    expect(existsSync(lockPath())).toBe(true)
    expect(existsSync(ws.ledgerPath)).toBe(false)
    // Its pending line, appended before it tried the lock, and its booking once it gave up.
    const inbox = readFileSync(join(ws.root, 'state', '.sleep-inbox.jsonl'), 'utf8')
    const lines = inbox
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => [line.session_id, line.outcome.kind])).toEqual([
      ['blocked', 'pending'],
      ['blocked', 'scored'],
    ])
    await releaseLock(holder)
    // The next holder of the lock merges it; further holders do not count it again.
    for (let round = 0; round < 2; round += 1) {
      const status = runSomnus(ws, ['sleep', 'status', '--json'])
      expect(status.status, status.stderr).toBe(0)
    }
    // The inbox is repository text: its line books the session, but not its score (pending).
    const merged = readLedger(ws)
    expect(merged.sessions.map((session) => session.session_id)).toEqual(['blocked'])
    expect(merged.sessions[0]?.score).toBeNull()
    expect(merged.debt).toBe(0)
    // The next SessionStart scores it from its transcript.
    const start = await spawnHook(ws, 'session-start', {
      text: JSON.stringify({ hook_event_name: 'SessionStart', cwd: ws.project }),
    })
    expect(start.code, start.stderr).toBe(0)
    const scored = readLedger(ws)
    expect(scored.sessions[0]?.score).toBeGreaterThan(0)
    expect(scored.debt).toBe(scored.sessions[0]?.score)
    const again = await spawnHook(ws, 'stop', { text: stopPayloadFor(ws, 'other') })
    expect(again.code).toBe(0)
    const ledger = readLedger(ws)
    expect(ledger.sessions.map((session) => session.session_id).sort()).toEqual([
      'blocked',
      'other',
    ])
    expect(ledger.sessions_since_last_sleep).toBe(2)
  }, 30_000)

  it('SessionStart under a held lock still prints the context inside its timeout, saying why it saved nothing', async () => {
    ws = createHookWorkspace()
    holder = await holdLock(lockPath())
    const payload = JSON.stringify({ hook_event_name: 'SessionStart', cwd: ws.project })
    const run = await spawnHook(ws, 'session-start', { text: payload })
    expect(run.code).toBe(0)
    expect(run.exitAfterMs).toBeLessThan(timeoutMsOf('session-start'))
    expect(run.stdout).toContain('# Agent Context')
    expect(readFileSync(brainLog(), 'utf8')).toContain('locked by another somnus process')
    expect(holder.exitCode).toBeNull()
  }, 30_000)
})
