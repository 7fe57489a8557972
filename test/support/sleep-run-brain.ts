/** A brain built from real Claude Code transcripts, for `sleep run` tests. */
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { Brain } from '../../src/brain/app/brain.ts'
import { recordStop } from '../../src/brain/app/record-stop.ts'
import { brainAt } from '../../src/brain/compose.ts'
import { addBookmark } from '../../src/brain/core/ledger.ts'
import { analyzeSession } from '../../src/engine/adapters/fs/transcript-files.ts'
import { fixedClock } from '../../src/engine/ports/clock.ts'
import { sequentialIds } from '../../src/engine/ports/id-generator.ts'
import { runCliCaptured } from './run-cli-captured.ts'
import { HAS_SHARED, REPO_ROOT, TRANSCRIPTS_DIR } from './shared-data.ts'

/**
 * The instant the test brains' clock is stopped at: in the past, so a real `somnus sleep run`
 * process (on the wall clock) sees every session as recorded before its epoch.
 */
export const NOW = '2026-01-15T12:00:00.000Z'
/** The dataset's three big real sessions (each with sub-agent files). */
const REAL_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]
/** The transcripts `somnus demo` replays, recorded from the real Claude Code CLI. */
const DEMO_DIR = join(REPO_ROOT, 'templates/demo')

/** `somnus init --plugin` run in `project`, and its brain opened with the clock at NOW. */
export async function initializedBrain(project: string): Promise<Brain> {
  expect((await runCliCaptured(['init', project, '--plugin'], { cwd: project })).code).toBe(0)
  const brain = brainAt(join(project, '_agent_context'), {
    env: {},
    clock: fixedClock(NOW),
    ids: sequentialIds(),
    warn: () => undefined,
  })
  return brain
}

/** A brain in a new temp project: real templates, real and demo transcripts, one ★★★ bookmark. */
export async function buildBrain(
  project = mkdtempSync(join(tmpdir(), 'somnus-sleep-run-')),
): Promise<Brain> {
  const brain = await initializedBrain(project)
  const transcripts = [
    ...(HAS_SHARED
      ? REAL_SESSIONS.map((id) => ({ id, path: join(TRANSCRIPTS_DIR, `${id}.jsonl`) }))
      : []),
    ...readdirSync(DEMO_DIR).map((name, index) => {
      const path = join(project, `demo-${index}.jsonl`)
      cpSync(join(DEMO_DIR, name), path)
      return { id: `demo-${index}`, path }
    }),
  ]
  for (const transcript of transcripts) {
    await recordStop(brain, analyzeSession, {
      session_id: transcript.id,
      transcript_path: transcript.path,
      last_assistant_message: lastAssistantText(transcript.path),
    })
  }
  await brain.state.update((state) => ({
    state: addBookmark(state, {
      id: 'bm_critical',
      message: 'Never write API keys into the sleep ledger or the hook log',
      salience: 3,
      now: new Date(Date.parse(NOW) - 60 * 60 * 1000),
    }),
    result: undefined,
  }))
  return brain
}

/** Claude's last words in a transcript, as the Stop hook receives them. */
export function lastAssistantText(path: string): string | null {
  const lines = readFileSync(path, 'utf8').trim().split('\n').reverse()
  for (const line of lines) {
    const record = JSON.parse(line) as { type?: string; message?: { content?: unknown } }
    if (record.type !== 'assistant' || !Array.isArray(record.message?.content)) continue
    const text = (record.message.content as { type: string; text?: string }[]).find(
      (block) => block.type === 'text',
    )?.text
    if (text) return text
  }
  return null
}
