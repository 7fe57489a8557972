/**
 * A brain for the dashboard tests, built the way a user's is: `somnus init`, the Stop hook's
 * record for each real session of the shared dataset (and the demo recordings), and a real
 * `somnus sleep run` after each group, so the history holds several sleeps; one session is left
 * pending.
 */
import { cpSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { recordStop } from '../../src/brain/app/record-stop.ts'
import { analyzeSession } from '../../src/engine/adapters/fs/transcript-files.ts'
import { runCliCaptured } from './run-cli-captured.ts'
import { HAS_SHARED, REPO_ROOT, TRANSCRIPTS_DIR } from './shared-data.ts'
import { initializedBrain, lastAssistantText } from './sleep-run-brain.ts'

const REAL_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]

/** What the built brain holds, for assertions. */
export interface DashboardBrain {
  project: string
  /** How many `sleep run`s changed the brain. */
  sleeps: number
  /** Session ids recorded after the last sleep. */
  pending: string[]
}

/** Builds the brain in a new temp project: one sleep per real session, the last demo left pending. */
export async function buildDashboardBrain(): Promise<DashboardBrain> {
  const project = mkdtempSync(join(tmpdir(), 'somnus-dashboard-'))
  const brain = await initializedBrain(project)
  const demo = readdirSync(join(REPO_ROOT, 'templates/demo')).map((name, index) => {
    const path = join(project, `demo-${index}.jsonl`)
    cpSync(join(REPO_ROOT, 'templates/demo', name), path)
    return { id: `demo-${index}`, path }
  })
  const real = HAS_SHARED
    ? REAL_SESSIONS.map((id) => ({ id, path: join(TRANSCRIPTS_DIR, `${id}.jsonl`) }))
    : []
  const groups = [...real.map((session) => [session]), demo.slice(0, -1)]
  let sleeps = 0
  for (const group of groups) {
    for (const session of group) {
      await recordStop(brain, analyzeSession, {
        session_id: session.id,
        transcript_path: session.path,
        last_assistant_message: lastAssistantText(session.path),
      })
    }
    const run = await runCliCaptured(['sleep', 'run'], { cwd: project })
    expect(run.code, run.stderr).toBe(0)
    sleeps++
  }
  const pending = demo.slice(-1)
  for (const session of pending) {
    await recordStop(brain, analyzeSession, {
      session_id: session.id,
      transcript_path: session.path,
      last_assistant_message: lastAssistantText(session.path),
    })
  }
  return { project, sleeps, pending: pending.map((session) => session.id) }
}
