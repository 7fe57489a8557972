/**
 * Issue 18: a `transcript_path` and a committed Stop inbox are attacker text. SessionStart's
 * catch-up lists only a folder Claude Code made (a direct child of its projects folder, real, the
 * user's own), and a merged inbox line books only its session's own transcript there, scored
 * afresh from it, never with the score the line claims. Real processes of the built hook.
 */
import { randomUUID } from 'node:crypto'
import { chownSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import {
  createHookWorkspace,
  type HookWorkspace,
  readLedger,
  stopPayload,
} from '../support/hook-workspace.ts'
import { spawnHook } from '../support/spawn-hook.ts'
import { writeSplitLoaderTranscript } from '../support/split-loader-transcript.ts'

function sessionsOf(ws: HookWorkspace): Record<string, unknown> {
  if (!existsSync(ws.ledgerPath)) return {}
  return Object.fromEntries(readLedger(ws).sessions.map((row) => [row.session_id, row.score]))
}

function hookLog(ws: HookWorkspace): string {
  const path = join(ws.root, 'state', '.somnus-hook.log')
  return existsSync(path) ? readFileSync(path, 'utf8') : ''
}

async function hook(ws: HookWorkspace, event: string, payload: object): Promise<void> {
  const run = await spawnHook(ws, event, { text: JSON.stringify(payload) })
  expect(run.code, run.stderr).toBe(0)
}

/** SessionStart of a new session whose transcript Claude Code would write at `transcriptPath`. */
function startPayload(ws: HookWorkspace, transcriptPath?: string) {
  return {
    session_id: randomUUID(),
    ...(transcriptPath === undefined ? {} : { transcript_path: transcriptPath }),
    cwd: ws.project,
    hook_event_name: 'SessionStart',
    source: 'startup',
  }
}

describe('transcript paths and the Stop inbox are untrusted', () => {
  const workspaces: HookWorkspace[] = []
  const workspace = () => {
    const ws = createHookWorkspace()
    workspaces.push(ws)
    return ws
  }
  let one = 0

  beforeAll(async () => {
    await ensureBuilt()
    // The score a one-Write session books through its own Stop, on a quiet brain.
    const ws = workspace()
    const id = randomUUID()
    await hook(ws, 'stop', stopPayload(ws, id, writeSplitLoaderTranscript(ws.transcripts, id, 1)))
    one = sessionsOf(ws)[id] as number
    expect(one).toBeGreaterThan(0)
  }, 300_000)

  afterEach(() => {
    for (const ws of workspaces.splice(1)) ws.dispose()
  })

  afterAll(() => {
    for (const ws of workspaces.splice(0)) ws.dispose()
  })

  it('SessionStart books no transcript planted outside a folder of Claude Code’s projects folder', async () => {
    const ws = workspace()
    const projects = dirname(ws.transcripts)
    const planted = join(ws.dir, 'planted') // in the shared temp folder
    mkdirSync(planted)
    const linked = join(projects, 'linked-project') // a symlink to it, inside the projects folder
    symlinkSync(planted, linked)
    const nested = join(ws.transcripts, 'deeper') // a grandchild, not a project folder
    mkdirSync(nested)
    const foreign = join(projects, 'someone-elses') // a project folder owned by another user
    mkdirSync(foreign)
    const folders = [planted, ws.project, linked, nested, foreign]
    for (const folder of folders) writeSplitLoaderTranscript(folder, randomUUID(), 10)
    chownSync(foreign, 65534, 65534)
    for (const folder of [...folders, join(ws.project, '..', 'project')])
      await hook(ws, 'session-start', startPayload(ws, join(folder, `${randomUUID()}.jsonl`)))
    expect(sessionsOf(ws)).toEqual({})
    expect(hookLog(ws)).toContain('missed sessions not looked for')

    // A Stop naming a transcript out there is the session's own: scored, never listed beside.
    const ownId = randomUUID()
    await hook(ws, 'stop', stopPayload(ws, ownId, writeSplitLoaderTranscript(ws.project, ownId, 1)))
    await hook(ws, 'session-start', startPayload(ws, join(ws.project, `${randomUUID()}.jsonl`)))
    expect(sessionsOf(ws)).toEqual({ [ownId]: one })

    // The same planting in the session's real project folder is caught up: the rule is the folder.
    const missed = randomUUID()
    writeSplitLoaderTranscript(ws.transcripts, missed, 1)
    await hook(ws, 'session-start', startPayload(ws, join(ws.transcripts, `${randomUUID()}.jsonl`)))
    expect(sessionsOf(ws)).toEqual({ [ownId]: one, [missed]: one })
  }, 120_000)

  it('a committed inbox books only its sessions’ own transcripts, scored from them, and warns once', async () => {
    const ws = workspace()
    const real = randomUUID()
    const realPath = writeSplitLoaderTranscript(ws.transcripts, real, 1)
    const planted = randomUUID()
    const plantedPath = writeSplitLoaderTranscript(ws.project, planted, 10)
    const ghost = randomUUID()
    const claimed = { kind: 'scored', change_count: 40, tool_count: 40, score: 3, task_slugs: [] }
    const line = (id: string, session_id: string, transcript_path: string | null) =>
      JSON.stringify({
        id,
        session_id,
        transcript_path,
        last_assistant_message: 'Done.',
        outcome: claimed,
        now: new Date().toISOString(),
      })
    const forged = [
      line('forged-real', real, realPath), // a real session of the user's, its score inflated
      line('forged-planted', planted, plantedPath), // a transcript in the repository
      line('forged-ghost', ghost, join(ws.transcripts, `${ghost}.jsonl`)), // no such transcript
      line('forged-borrowed', randomUUID(), realPath), // another session's transcript
      line('forged-none', randomUUID(), null),
    ]
    writeFileSync(join(ws.root, 'state', '.sleep-inbox.jsonl'), `${forged.join('\n')}\n`)

    for (let round = 0; round < 2; round += 1) {
      await hook(ws, 'session-start', startPayload(ws))
      expect(sessionsOf(ws)).toEqual({ [real]: one })
      expect(readLedger(ws).debt).toBe(one)
      expect(readLedger(ws).sessions_since_last_sleep).toBe(1)
    }
    const warnings = hookLog(ws).match(/ignored 4 line\(s\) of the Stop inbox/g) ?? []
    expect(warnings).toHaveLength(1)
  }, 120_000)
})
