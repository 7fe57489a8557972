/**
 * Issue 18: no turn lost under a busy machine. Every Stop appends a pending booking to the
 * ledger's inbox before it tries the lock, so a Stop killed after that instant (kill -9 here, as
 * Claude Code's 5 s timeout does) has still recorded its turn, and one that books directly
 * counts its own line once. Real processes of the built hook on real files.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import {
  createHookWorkspace,
  type HookWorkspace,
  readLedger,
  stopPayload,
} from '../support/hook-workspace.ts'
import { holdLock, releaseLock } from '../support/ledger-lock-holder.ts'
import { spawnHook } from '../support/spawn-hook.ts'
import { writeSplitLoaderTranscript } from '../support/split-loader-transcript.ts'

function runSomnus(ws: HookWorkspace, args: string[]) {
  return spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
    cwd: ws.project,
    env: { PATH: process.env.PATH, HOME: ws.home },
    encoding: 'utf8',
  })
}

const inboxPath = (ws: HookWorkspace) => join(ws.root, 'state', '.sleep-inbox.jsonl')

/** The inbox lines (live file only) as parsed JSON. */
function inboxLines(ws: HookWorkspace): { id: string; session_id: string; outcome: object }[] {
  if (!existsSync(inboxPath(ws))) return []
  return readFileSync(inboxPath(ws), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line))
}

/** The score one Stop of `writes` Write calls books on its own, on a quiet machine. */
async function scoreAlone(writes: number): Promise<number> {
  const ws = createHookWorkspace()
  try {
    const path = writeSplitLoaderTranscript(ws.transcripts, 'alone', writes)
    const run = await spawnHook(ws, 'stop', {
      text: JSON.stringify(stopPayload(ws, 'alone', path)),
    })
    expect(run.code, run.stderr).toBe(0)
    return readLedger(ws).sessions[0]?.score as number
  } finally {
    ws.dispose()
  }
}

describe('the Stop hook queues its turn before it tries the lock', () => {
  const workspaces: HookWorkspace[] = []
  let holder: ChildProcess | undefined

  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  afterEach(async () => {
    await releaseLock(holder)
    holder = undefined
    for (const ws of workspaces.splice(0)) ws.dispose()
  })

  it('a Stop killed (-9) right after its append keeps its turn: merged once, then scored by SessionStart', async () => {
    const expected = await scoreAlone(5)
    expect(expected).toBeGreaterThan(0)
    const ws = createHookWorkspace()
    workspaces.push(ws)
    const path = writeSplitLoaderTranscript(ws.transcripts, 'killed', 5)
    // A live holder keeps the lock: the Stop appends its line, then waits for the lock.
    holder = await holdLock(`${ws.ledgerPath}.lock`)
    const child = spawn(process.execPath, [SOMNUS_BIN, 'hook', 'stop'], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home },
      stdio: ['pipe', 'ignore', 'ignore'],
    })
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    )
    child.stdin.end(JSON.stringify(stopPayload(ws, 'killed', path)))
    const deadline = Date.now() + 20_000
    while (inboxLines(ws).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    const queued = inboxLines(ws)
    expect(queued).toHaveLength(1)
    expect(queued[0]).toMatchObject({ session_id: 'killed', outcome: { kind: 'pending' } })
    expect(existsSync(ws.ledgerPath)).toBe(false)
    await releaseLock(holder)

    // The next holder of the lock merges the line; a second one does not count it again.
    for (let round = 0; round < 2; round += 1) {
      const status = runSomnus(ws, ['sleep', 'status', '--json'])
      expect(status.status, status.stderr).toBe(0)
    }
    const merged = readLedger(ws)
    expect(merged.sessions.map((session) => [session.session_id, session.score])).toEqual([
      ['killed', null],
    ])
    expect(merged.sessions_since_last_sleep).toBe(1)
    expect(merged.inbox_merged_ids).toEqual([queued[0]?.id])

    // The next session's SessionStart scores the pending turn from its transcript.
    const start = await spawnHook(ws, 'session-start', {
      text: JSON.stringify({ hook_event_name: 'SessionStart', cwd: ws.project }),
    })
    expect(start.code, start.stderr).toBe(0)
    const scored = readLedger(ws)
    expect(scored.sessions.map((session) => [session.session_id, session.score])).toEqual([
      ['killed', expected],
    ])
    expect(scored.debt).toBe(expected)
    expect(scored.sessions_since_last_sleep).toBe(1)
  }, 60_000)

  it('a Stop that takes the lock merges its own line in its write: its turn counts once, turn after turn', async () => {
    const ws = createHookWorkspace()
    workspaces.push(ws)
    const path = writeSplitLoaderTranscript(ws.transcripts, 'direct', 10)
    const expected = await scoreAlone(10)
    for (let turn = 0; turn < 3; turn += 1) {
      const run = await spawnHook(ws, 'stop', {
        text: JSON.stringify(stopPayload(ws, 'direct', path)),
      })
      expect(run, run.stderr).toMatchObject({ code: 0, stdout: '' })
      const ledger = readLedger(ws)
      expect(ledger.sessions.map((session) => [session.session_id, session.score])).toEqual([
        ['direct', expected],
      ])
      expect(ledger.debt).toBe(expected)
      expect(ledger.sessions_since_last_sleep).toBe(1)
      // The Stop's own pending line is recorded as merged in the same write as its score.
      expect((ledger.inbox_merged_ids as string[]).length).toBeGreaterThanOrEqual(turn + 1)
    }
    const status = runSomnus(ws, ['sleep', 'status', '--json'])
    expect(status.status, status.stderr).toBe(0)
    const ledger = readLedger(ws)
    expect(ledger.sessions.map((session) => session.score)).toEqual([expected])
    expect(ledger.debt).toBe(expected)
  }, 60_000)
})
