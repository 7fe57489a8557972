/**
 * Issue 18: a Stop killed by Claude Code's 5 s timeout before Node reached its inbox append leaves
 * nothing but its transcript. The next SessionStart books such sessions from the transcripts beside
 * its own (seed 000), exactly as their Stop would have, and a late Stop replaces that score. Real
 * processes of the built hook on real files.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, symlinkSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import {
  createHookWorkspace,
  type HookWorkspace,
  readLedger,
  stopPayload,
} from '../support/hook-workspace.ts'
import { spawnHook } from '../support/spawn-hook.ts'
import {
  splitLoaderTranscript,
  writeSplitLoaderTranscript,
} from '../support/split-loader-transcript.ts'

/** What the next session's Claude Code sends to SessionStart. */
function startPayload(ws: HookWorkspace, sessionId: string) {
  return {
    session_id: sessionId,
    transcript_path: join(ws.transcripts, `${sessionId}.jsonl`),
    cwd: ws.project,
    hook_event_name: 'SessionStart',
    source: 'startup',
  }
}

async function stop(ws: HookWorkspace, sessionId: string, path: string): Promise<void> {
  const run = await spawnHook(ws, 'stop', {
    text: JSON.stringify(stopPayload(ws, sessionId, path)),
  })
  expect(run.code, run.stderr).toBe(0)
}

async function sessionStart(ws: HookWorkspace, sessionId: string): Promise<void> {
  const run = await spawnHook(ws, 'session-start', {
    text: JSON.stringify(startPayload(ws, sessionId)),
  })
  expect(run.code, run.stderr).toBe(0)
}

/** session id → score, as the ledger holds them. */
function scores(ws: HookWorkspace): Record<string, unknown> {
  return Object.fromEntries(
    readLedger(ws).sessions.map((session) => [session.session_id, session.score]),
  )
}

describe('SessionStart books the sessions whose Stop never ran', () => {
  const workspaces: HookWorkspace[] = []
  const workspace = () => {
    const ws = createHookWorkspace()
    workspaces.push(ws)
    return ws
  }
  /** Writes → the score one Stop books for such a transcript on its own. */
  const alone = new Map<number, number>()
  const scoreAlone = async (writes: number, extra = 0): Promise<number> => {
    const key = writes * 1000 + extra
    const known = alone.get(key)
    if (known !== undefined) return known
    const ws = workspace()
    const id = randomUUID()
    const path = writeSplitLoaderTranscript(ws.transcripts, id, writes)
    if (extra > 0) appendFileSync(path, splitLoaderTranscript(id, extra, writes))
    await stop(ws, id, path)
    const score = scores(ws)[id] as number
    expect(score).toBeGreaterThan(0)
    alone.set(key, score)
    return score
  }

  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  afterEach(() => {
    for (const ws of workspaces.splice(0)) ws.dispose()
  })

  it('books the one never stopped, exactly; ignores links, FIFOs, old transcripts and the starting session; twice counts once; a late Stop replaces', async () => {
    const [one, five, ten] = [await scoreAlone(1), await scoreAlone(5), await scoreAlone(10)]
    const ws = workspace()
    const [a, b, missed, next] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()]
    const pathA = writeSplitLoaderTranscript(ws.transcripts, a, 1)
    const pathB = writeSplitLoaderTranscript(ws.transcripts, b, 5)
    const missedPath = writeSplitLoaderTranscript(ws.transcripts, missed, 10)
    await stop(ws, a, pathA)
    await stop(ws, b, pathB)
    // Not sessions to book: a link to a transcript elsewhere, a FIFO (opening it would block),
    // a transcript last written before the brain existed, and the starting session's own file.
    const elsewhere = join(ws.dir, 'elsewhere')
    mkdirSync(elsewhere)
    const linked = writeSplitLoaderTranscript(elsewhere, randomUUID(), 10)
    symlinkSync(linked, join(ws.transcripts, `${randomUUID()}.jsonl`))
    const fifo = spawnSync('mkfifo', [join(ws.transcripts, `${randomUUID()}.jsonl`)])
    expect(fifo.status).toBe(0)
    const old = randomUUID()
    const oldPath = writeSplitLoaderTranscript(ws.transcripts, old, 10)
    utimesSync(oldPath, new Date('2020-01-01'), new Date('2020-01-01'))
    writeSplitLoaderTranscript(ws.transcripts, next, 10)
    expect(scores(ws)).toEqual({ [a]: one, [b]: five })

    for (let round = 0; round < 2; round += 1) {
      await sessionStart(ws, next)
      const ledger = readLedger(ws)
      expect(scores(ws)).toEqual({ [a]: one, [b]: five, [missed]: ten })
      expect(ledger.debt).toBe(one + five + ten)
      expect(ledger.sessions_since_last_sleep).toBe(3)
    }

    // The missed session goes on and its Stop runs at last: its score is replaced, not added.
    appendFileSync(missedPath, splitLoaderTranscript(missed, 10, 10))
    const grown = await scoreAlone(10, 10)
    await stop(ws, missed, missedPath)
    expect(scores(ws)).toEqual({ [a]: one, [b]: five, [missed]: grown })
    expect(readLedger(ws).debt).toBe(one + five + grown)
    expect(readLedger(ws).sessions_since_last_sleep).toBe(3)
  }, 120_000)

  it('books at most five per SessionStart, newest first, and the rest at the next', async () => {
    const one = await scoreAlone(1)
    const ws = workspace()
    const ids = Array.from({ length: 7 }, () => randomUUID())
    ids.forEach((id, index) => {
      const path = writeSplitLoaderTranscript(ws.transcripts, id, 1)
      // All after the brain was made, whichever of its folders the catch-up dates it by.
      const at = new Date(Date.now() + (index + 1) * 1000)
      utimesSync(path, at, at)
    })
    await sessionStart(ws, randomUUID())
    // On a busy machine a SessionStart may not get the ledger lock in its budget and book none;
    // whatever it books is the newest, five at most.
    const first = Object.keys(scores(ws)).length
    expect(first).toBeLessThanOrEqual(5)
    expect(Object.keys(scores(ws)).sort()).toEqual(ids.slice(7 - first).sort())
    for (let start = 0; start < 12 && Object.keys(scores(ws)).length < 7; start += 1)
      await sessionStart(ws, randomUUID())
    expect(scores(ws)).toEqual(Object.fromEntries(ids.map((id) => [id, one])))
    expect(readLedger(ws).debt).toBe(7 * one)
  }, 120_000)

  it('without a transcript path, or with a relative one, nothing is looked for', async () => {
    const ws = workspace()
    const id = randomUUID()
    writeSplitLoaderTranscript(ws.transcripts, id, 1)
    for (const transcript_path of [undefined, `${id}.jsonl`]) {
      const run = await spawnHook(ws, 'session-start', {
        text: JSON.stringify({ ...startPayload(ws, randomUUID()), transcript_path }),
      })
      expect(run.code, run.stderr).toBe(0)
    }
    // SessionStart writes no ledger when there is nothing to book or count.
    expect(existsSync(ws.ledgerPath) ? readLedger(ws).sessions : []).toEqual([])
  }, 60_000)
})
