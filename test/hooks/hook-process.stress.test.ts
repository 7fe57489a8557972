/**
 * The built hook as Claude Code runs it: `node bin/somnus.js hook <event>` processes, many at once
 * and killed at random moments. The ledger must stay exact and always parse.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SleepStateSchema } from '../../src/brain/core/sleep-state.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import {
  copyTranscript,
  createHookWorkspace,
  type HookWorkspace,
  REAL_SESSIONS,
  readLedger,
  referenceCounts,
  stopPayload,
} from '../support/hook-workspace.ts'
import { HAS_SHARED } from '../support/shared-data.ts'

const SOURCES = [...REAL_SESSIONS, 'short', 'subagent', 'tool_heavy']

interface ProcessRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Spawns the hook with `payload` on stdin; `killAfterMs` sends SIGKILL after that long. */
function spawnHook(
  ws: HookWorkspace,
  event: string,
  payload: unknown,
  killAfterMs?: number,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [SOMNUS_BIN, 'hook', event], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    child.stdin?.on('error', () => undefined)
    child.stdin?.end(JSON.stringify(payload))
    const killer =
      killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(killer)
      clearTimeout(guard)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

function seedScore(counts: { change_count: number; tool_count: number }): number {
  const changes = counts.change_count
  const tools = counts.tool_count
  const fromChanges = changes === 0 ? 0 : changes <= 3 ? 1 : changes <= 8 ? 2 : 3
  const fromTools = tools === 0 ? 0 : tools <= 15 ? 1 : tools <= 40 ? 2 : 3
  return Math.max(fromChanges, fromTools)
}

describe.skipIf(!HAS_SHARED)('the built hook as separate processes', () => {
  const workspaces: HookWorkspace[] = []

  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  afterAll(() => {
    for (const ws of workspaces) ws.dispose()
  })

  it('50 concurrent Stop hooks for 50 sessions: every one recorded once, debt the exact sum', async () => {
    const ws = createHookWorkspace()
    workspaces.push(ws)
    const scores = new Map<string, number>()
    const payloads = Array.from({ length: 50 }, (_, index) => {
      const id = `concurrent-${String(index).padStart(2, '0')}`
      const path = copyTranscript(ws, SOURCES[index % SOURCES.length] as string, id)
      scores.set(id, seedScore(referenceCounts(path)))
      return stopPayload(ws, id, path)
    })
    const runs = await Promise.all(payloads.map((payload) => spawnHook(ws, 'stop', payload)))
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stdout: '' })
    // 50 processes analysing transcripts on a couple of cores can starve the lock holder: a Stop
    // that cannot take the lock in time queues its turn in the inbox, and the next holder of the
    // lock (here `sleep status`) merges it. Every turn is in the ledger, once.
    const status = spawnSync(process.execPath, [SOMNUS_BIN, 'sleep', 'status', '--json'], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home },
      encoding: 'utf8',
    })
    expect(status.status, status.stderr).toBe(0)
    // A merged turn is booked pending (an inbox line's score is not trusted): the next session's
    // SessionStart scores it from its own transcript, as Claude Code's next session would.
    const start = await spawnHook(ws, 'session-start', {
      hook_event_name: 'SessionStart',
      cwd: ws.project,
    })
    expect(start.code, start.stderr).toBe(0)
    const ledger = readLedger(ws)
    const recorded = ledger.sessions.map((session) => session.session_id as string)
    expect(new Set(recorded).size).toBe(recorded.length)
    expect(recorded.length).toBe(50)
    expect(ledger.sessions_since_last_sleep).toBe(50)
    const expectedDebt = recorded.reduce((sum, id) => sum + (scores.get(id) ?? Number.NaN), 0)
    expect(ledger.debt).toBe(expectedDebt)
  }, 180_000)

  it('kill -9 at random moments never leaves a ledger that does not parse', async () => {
    const ws = createHookWorkspace()
    workspaces.push(ws)
    // Each Stop names its own transcript, `<session id>.jsonl`, as Claude Code's do: a queued
    // turn is merged only for its session's own transcript.
    const transcriptOf = (sessionId: string) => copyTranscript(ws, REAL_SESSIONS[2], sessionId)
    // A large ledger (as after weeks without sleep) makes the locked read-modify-write long
    // enough that some kills land inside it, not only during start-up.
    const seeded = Array.from({ length: 1000 }, (_, index) => ({
      session_id: `manual-${index}`,
      transcript_path: null,
      stopped_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
      last_assistant_message: 'Earlier work, recorded by hand. '.repeat(8),
      change_count: null,
      tool_count: null,
      score: 1,
      task_slugs: [],
    }))
    writeFileSync(
      ws.ledgerPath,
      JSON.stringify({ debt: 1000, sessions_since_last_sleep: 1000, sessions: seeded }, null, 2),
    )
    const started = Date.now()
    const first = await spawnHook(
      ws,
      'stop',
      stopPayload(ws, 'survivor-first', transcriptOf('survivor-first')),
    )
    expect(first, first.stderr).toMatchObject({ code: 0, stdout: '' })
    const fullRunMs = Date.now() - started
    const survivors = ['survivor-first']
    const kills = 25
    let killedMidRun = 0
    let locksLeftBehind = 0
    for (let round = 0; round < kills; round += 1) {
      // Uniform over a whole run: start-up, transcript analysis, lock, read, write, rename.
      const delay = Math.floor(Math.random() * fullRunMs * 1.1)
      const killed = await spawnHook(
        ws,
        'stop',
        stopPayload(ws, `victim-${round}`, transcriptOf(`victim-${round}`)),
        delay,
      )
      expect(killed.code === 0 || killed.signal === 'SIGKILL').toBe(true)
      if (killed.signal === 'SIGKILL') killedMidRun += 1
      if (existsSync(`${ws.ledgerPath}.lock`)) locksLeftBehind += 1
      const text = readFileSync(ws.ledgerPath, 'utf8')
      expect(SleepStateSchema.safeParse(JSON.parse(text)).success).toBe(true)
      // The next hook records its turn: in the ledger, or queued in the inbox when the killed
      // one left its lock behind (stale only after 4 s, and a Stop gives up at 3 s).
      const next = await spawnHook(
        ws,
        'stop',
        stopPayload(ws, `survivor-${round}`, transcriptOf(`survivor-${round}`)),
      )
      expect(next, next.stderr).toMatchObject({ code: 0, stdout: '' })
      survivors.push(`survivor-${round}`)
      const ledger = readLedger(ws)
      const sum = ledger.sessions.reduce((total, session) => total + Number(session.score), 0)
      expect(ledger.debt).toBe(sum)
      expect(ledger.sessions_since_last_sleep).toBe(ledger.sessions.length)
    }
    // Once any lock left behind is stale, the next holder merges every queued turn.
    await new Promise((resolve) => setTimeout(resolve, 4_500))
    const status = spawnSync(process.execPath, [SOMNUS_BIN, 'sleep', 'status', '--json'], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home },
      encoding: 'utf8',
    })
    expect(status.status, status.stderr).toBe(0)
    const start = await spawnHook(ws, 'session-start', {
      hook_event_name: 'SessionStart',
      cwd: ws.project,
    })
    expect(start.code, start.stderr).toBe(0)
    const final = readLedger(ws)
    expect(final.sessions.map((session) => session.session_id)).toEqual(
      expect.arrayContaining(survivors),
    )
    expect(final.debt).toBe(final.sessions.reduce((total, s) => total + Number(s.score), 0))
    process.stderr.write(
      `[hook kill -9] ${kills} kills over ${fullRunMs} ms runs: ${killedMidRun} mid-run, ${locksLeftBehind} left the lock behind\n`,
    )
    expect(killedMidRun).toBeGreaterThanOrEqual(kills / 5)
  }, 600_000)
})
