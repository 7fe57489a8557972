/**
 * `sleep run` on a brain built from real Claude Code transcripts (the shared dataset and the demo
 * recordings): every added line cites real sources, a second run changes nothing, a dry run
 * changes nothing, and an interrupted run is finished, never left half-applied.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { analyzeSession } from '../src/adapters/fs/transcript-files.ts'
import { createExtractiveLanguageModel } from '../src/adapters/llm/extractive-language-model.ts'
import type { Brain } from '../src/app/brain.ts'
import { recordStop } from '../src/app/record-stop.ts'
import { runSleep } from '../src/app/run-sleep.ts'
import { commitSleepRun, finishSleepRun, SLEEP_RUN_JOURNAL } from '../src/app/sleep-run-journal.ts'
import { brainAt, composeTranscriptUnits } from '../src/compose.ts'
import { addBookmark } from '../src/core/ledger.ts'
import { lineCount } from '../src/core/sleep-run/archive-overflow.ts'
import { fixedClock } from '../src/ports/clock.ts'
import { sequentialIds } from '../src/ports/id-generator.ts'
import { runCli } from '../src/surfaces/cli/run-cli.ts'
import {
  HAS_SHARED,
  REPO_ROOT,
  SHARED_SKIP_REASON,
  TRANSCRIPTS_DIR,
} from './support/shared-data.ts'

const NOW = '2026-11-21T12:00:00.000Z'
const REAL_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]
const DEMO_DIR = join(REPO_ROOT, 'templates/demo')

/** Every file of the brain but the ledger, by relative path, with the temp project name masked. */
function brainFiles(root: string): Record<string, string> {
  const project = basename(join(root, '..'))
  const files: Record<string, string> = {}
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (!name.startsWith('.sleep')) {
        files[relative(root, path)] = readFileSync(path, 'utf8').replaceAll(project, '<project>')
      }
    }
  }
  walk(root)
  return files
}

async function buildBrain(): Promise<Brain> {
  const project = mkdtempSync(join(tmpdir(), 'somnus-sleep-run-'))
  const quiet = { stdout: () => undefined, stderr: () => undefined, readStdin: async () => '' }
  expect(await runCli(['init', project, '--plugin'], { ...quiet, cwd: project, env: {} })).toBe(0)
  const brain = brainAt(join(project, '_agent_context'), {
    env: {},
    clock: fixedClock(NOW),
    ids: sequentialIds(),
    warn: () => undefined,
  })
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
      now: new Date('2026-11-21T11:00:00.000Z'),
    }),
    result: undefined,
  }))
  return brain
}

function lastAssistantText(path: string): string | null {
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

function run(brain: Brain, options: { dryRun?: boolean } = {}) {
  return runSleep(brain, {
    model: createExtractiveLanguageModel(),
    transcriptUnits: composeTranscriptUnits(brain),
    ...options,
  })
}

describe('sleep run on real transcripts', () => {
  if (!HAS_SHARED)
    console.warn(`[sleep run] ${SHARED_SKIP_REASON}; using the bundled demo transcripts only`)
  let brain: Brain

  beforeEach(async () => {
    brain = await buildBrain()
  }, 60_000)

  it('consolidates: every added line cites sources that exist, debt resets, history records it', async () => {
    const before = await brain.state.read()
    expect(before.debt).toBeGreaterThan(0)
    const result = await run(brain)
    expect(result.applied).toBe(true)

    const known = new Set<string>([
      ...before.sessions.map((session) => session.session_id),
      'bm_critical',
    ])
    for (const session of before.sessions) {
      for (const unit of await composeTranscriptUnits(brain)(session, null)) known.add(unit.id)
    }
    const added = result.plan.files
      .filter((file) => file.path.endsWith('.md'))
      .flatMap((file) =>
        file.after.split('\n').filter((line) => !(file.before ?? '').split('\n').includes(line)),
      )
      .filter((line) => line.startsWith('- '))
    expect(added.length).toBeGreaterThan(3)
    for (const line of added) {
      const cited = /<!-- sources: ([^;]+); (\S+) \d{4}-\d{2}-\d{2} -->$/.exec(line)
      expect(cited, line).not.toBeNull()
      expect(cited?.[2]).toBe('extractive')
      for (const id of cited?.[1]?.split(', ') ?? [])
        expect(known.has(id.replace(/^task:/, '')), `${id} in ${line}`).toBe(true)
    }
    expect(readFileSync(join(brain.root, 'core/2.memory.md'), 'utf8')).toContain(
      'Never write API keys into the sleep ledger or the hook log <!-- sources: bm_critical;',
    )

    const after = await brain.state.read()
    expect(after.debt).toBe(0)
    expect(after.sessions).toEqual([])
    expect(after.bookmarks).toEqual([])
    const [entry] = await brain.state.readHistory()
    expect(entry?.summary).toBe(result.plan.summary)
    expect(entry?.debt_before).toBe(before.debt)
    expect(entry?.session_ids.sort()).toEqual(
      before.sessions.map((session) => session.session_id).sort(),
    )
    for (const path of ['core/0.soul.md', 'core/1.user.md', 'core/2.memory.md']) {
      expect(lineCount(readFileSync(join(brain.root, path), 'utf8'))).toBeLessThanOrEqual(200)
    }
  })

  it('changes nothing when run a second time', async () => {
    await run(brain)
    const files = brainFiles(brain.root)
    const state = await brain.state.read()
    const history = await brain.state.readHistory()
    const second = await run(brain)
    expect(second.plan.empty).toBe(true)
    expect(second.applied).toBe(false)
    expect(brainFiles(brain.root)).toEqual(files)
    expect(await brain.state.read()).toEqual(state)
    expect(await brain.state.readHistory()).toEqual(history)
  })

  it('with --dry-run plans exactly what the real run then does, and changes nothing', async () => {
    const files = brainFiles(brain.root)
    const state = await brain.state.read()
    const planned = await run(brain, { dryRun: true })
    expect(planned.applied).toBe(false)
    expect(planned.plan.files.length).toBeGreaterThan(0)
    expect(brainFiles(brain.root)).toEqual(files)
    expect(await brain.state.read()).toEqual(state)
    const real = await run(brain)
    expect(real.plan).toEqual(planned.plan)
  })

  it('finishes a run that died after its commit point, with the same result as an unbroken run', async () => {
    const reference = await buildBrain()
    await run(reference)
    const expected = brainFiles(reference.root)

    // Plan, commit, then "die" after writing only the first file.
    const planned = await run(brain, { dryRun: true })
    await commitSleepRun(brain, {
      id: 'run_crashed',
      epoch: NOW,
      created_at: NOW,
      summary: planned.plan.summary,
      files: planned.plan.files.map((file) => ({ path: file.path, text: file.after })),
      triggers: planned.plan.triggers,
    })
    const first = planned.plan.files[0]
    if (first) await brain.files.write(first.path, first.after)
    expect(await brain.files.read(SLEEP_RUN_JOURNAL)).not.toBeNull()

    const next = await run(brain)
    expect(next.recovered).toBe(true)
    expect(next.plan.empty).toBe(true)
    expect(brainFiles(brain.root)).toEqual(expected)
    expect((await brain.state.read()).debt).toBe(0)
    expect(await brain.state.readHistory()).toHaveLength(1)
    expect(await finishSleepRun(brain)).toBe(false)
  }, 60_000)
})
