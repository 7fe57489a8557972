/**
 * Issue 18: a repository can commit anything under `_agent_context/state/.sleep-inbox.jsonl`
 * (`git add -f`). A symlink or FIFO there made every Stop fail before it took the lock (no turn
 * ever booked, silently); an oversized file there was skipped by every merge while Stops kept
 * queueing into it, so every Stop queued on a busy ledger was lost. Real processes of the built
 * hook on real files.
 */
import { type ChildProcess, execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  lstatSync,
  readdirSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
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
import { assistant, text, user } from '../support/transcript-lines.ts'

function writeTranscript(ws: HookWorkspace, sessionId: string): string {
  const path = join(ws.transcripts, `${sessionId}.jsonl`)
  const lines = [
    user(`Fix the ${sessionId} loader.`),
    assistant(`${sessionId}-a`, [text('Fixed.')]),
  ]
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
}

const inboxPath = (ws: HookWorkspace) => join(ws.root, 'state', '.sleep-inbox.jsonl')
const bookedSessions = (ws: HookWorkspace) =>
  existsSync(ws.ledgerPath) ? readLedger(ws).sessions.map((session) => session.session_id) : []

describe('a planted Stop inbox cannot make Stops lose their turns', () => {
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

  it.each(['symlink', 'fifo'])(
    'a %s under the inbox name: the Stop still books its turn, and the link is moved aside untouched',
    async (kind) => {
      const ws = createHookWorkspace()
      workspaces.push(ws)
      const target = join(ws.home, 'target')
      writeFileSync(target, 'ORIG\n')
      if (kind === 'symlink') symlinkSync(target, inboxPath(ws))
      else execFileSync('mkfifo', [inboxPath(ws)])
      const path = writeTranscript(ws, 'planted')
      const run = await spawnHook(ws, 'stop', {
        text: JSON.stringify(stopPayload(ws, 'planted', path)),
      })
      expect(run.code, run.stderr).toBe(0)
      expect(bookedSessions(ws)).toEqual(['planted'])
      expect(spawnSync('cat', [target], { encoding: 'utf8' }).stdout).toBe('ORIG\n')
      // The planted entry now has a name no merge reads; a fresh live inbox is a plain file.
      expect(existsSync(inboxPath(ws)) ? lstatSync(inboxPath(ws)).isFile() : true).toBe(true)
      expect(readdirSync(join(ws.root, 'state')).some((name) => name.includes('.refused.'))).toBe(
        true,
      )
    },
    60_000,
  )

  it('an oversized inbox: a Stop queued on a busy ledger afterwards is merged, not lost', async () => {
    const ws = createHookWorkspace()
    workspaces.push(ws)
    writeFileSync(inboxPath(ws), '')
    truncateSync(inboxPath(ws), 33 * 1024 * 1024)
    const first = writeTranscript(ws, 'first')
    // A Stop that takes the lock moves the oversized file aside.
    const direct = await spawnHook(ws, 'stop', {
      text: JSON.stringify(stopPayload(ws, 'first', first)),
    })
    expect(direct.code, direct.stderr).toBe(0)
    // Busy ledger: the next Stop can only queue.
    holder = await holdLock(`${ws.ledgerPath}.lock`)
    const second = writeTranscript(ws, 'second')
    const queued = await spawnHook(ws, 'stop', {
      text: JSON.stringify(stopPayload(ws, 'second', second)),
    })
    expect(queued.code, queued.stderr).toBe(0)
    await releaseLock(holder)
    holder = undefined
    const status = spawnSync(process.execPath, [SOMNUS_BIN, 'sleep', 'status', '--json'], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home },
      encoding: 'utf8',
    })
    expect(status.status, status.stderr).toBe(0)
    expect(bookedSessions(ws).sort()).toEqual(['first', 'second'])
  }, 60_000)
})
