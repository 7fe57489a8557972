/**
 * Finished work from the three real dev sessions reaches the feature PRDs it belongs to, as well as
 * the changelog: by the PRD's related tasks, its id, a task that points at it, or a file it names.
 * A PRD nothing belongs to is left as it was, and no session gets a PRD of its own.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Brain } from '../src/brain/app/brain.ts'
import { recordStop } from '../src/brain/app/record-stop.ts'
import { type RunSleepResult, runSleep } from '../src/brain/app/run-sleep.ts'
import { composeTranscriptUnits } from '../src/brain/compose.ts'
import { composeReadDigest } from '../src/brain/compose-digests.ts'
import { analyzeSession } from '../src/engine/adapters/fs/transcript-files.ts'
import { createExtractiveLanguageModel } from '../src/engine/adapters/llm/extractive-language-model.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from './support/shared-data.ts'
import { initializedBrain, lastAssistantText } from './support/sleep-run-brain.ts'

const SESSIONS = {
  gqc: '258c7280-ae70-4798-800f-63464d01a85d',
  dov: '4d5611e5-241a-462a-8d15-5122611a9569',
  fum: '8463c716-a2ea-4c14-9efa-87158ebd9f20',
}

/** Session 258c7280's epic, named by the PRD's related tasks. */
const REVIEW_PRD = `---
id: feat_review01
status: active
related_tasks: [spotter-gqc]
---

# Project review sessions

## Why

Annotations collected across sessions get reviewed together.

## Changelog

<!-- LIFO: newest entry at top -->
`
/** Named by a task that points at it (session 8463c716's epic) and by a file (session 4d5611e5's). */
const RENDERING_PRD = `---
id: feat_render01
status: active
---

# Transcript rendering

## Why

Transcripts read like the conversation they were.

## Technical Details

Shared HEEx components live in \`lib/spotter_web/components/transcript_components.ex\`.
`
const RENDERING_TASK = `---
name: Transcript UX epic
status: in_progress
feature: transcript-rendering
---

## Why

Transcripts that read like the session.
`
/** Nothing the sessions did belongs here. */
const BILLING_PRD = `---
id: feat_bill01
status: planned
related_tasks: [billing-v2]
---

# Billing

## Why

Invoices.
`
/** A plain-word slug names nothing on its own: "login" in a session's text does not route here. */
const LOGIN_PRD = `---
status: active
---

# Login

## Why

People log in.
`

async function realBrain(): Promise<Brain> {
  const project = mkdtempSync(join(tmpdir(), 'somnus-digest-features-'))
  const brain = await initializedBrain(project)
  for (const id of Object.values(SESSIONS)) {
    const path = join(project, 'transcripts', `${id}.jsonl`)
    cpSync(join(TRANSCRIPTS_DIR, `${id}.jsonl`), path)
    cpSync(join(TRANSCRIPTS_DIR, id), join(project, 'transcripts', id), { recursive: true })
    await recordStop(brain, analyzeSession, {
      session_id: id,
      transcript_path: path,
      last_assistant_message: lastAssistantText(path),
    })
  }
  const write = (path: string, text: string) => writeFileSync(join(brain.root, path), text)
  write('core/features/review-sessions.md', REVIEW_PRD)
  write('core/features/transcript-rendering.md', RENDERING_PRD)
  write('core/features/billing.md', BILLING_PRD)
  write('core/features/login.md', LOGIN_PRD)
  write('state/spotter-fum.md', RENDERING_TASK)
  return brain
}

const sleep = (brain: Brain) =>
  runSleep(brain, {
    model: createExtractiveLanguageModel(),
    transcriptUnits: composeTranscriptUnits(brain),
    readDigest: composeReadDigest(brain),
  })

const read = (brain: Brain, path: string) => readFileSync(join(brain.root, path), 'utf8')

/** The lines under the `### <date> - Session <id8>` heading of a PRD's Changelog. */
function sessionEntry(prd: string, sessionId: string): string[] {
  const lines = prd.split('\n')
  const start = lines.findIndex((line) =>
    new RegExp(`^### \\d{4}-\\d{2}-\\d{2} - Session ${sessionId.slice(0, 8)}$`).test(line),
  )
  if (start < 0) return []
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => !line.startsWith('- '))
  return end < 0 ? rest : rest.slice(0, end)
}

describe.skipIf(!HAS_SHARED)('sleep run files finished digest work under feature PRDs', () => {
  if (!HAS_SHARED) console.warn(`[digest features] ${SHARED_SKIP_REASON}`)
  let brain: Brain
  let result: RunSleepResult

  beforeAll(async () => {
    brain = await realBrain()
    result = await sleep(brain)
  }, 120_000)

  it("puts a session's finished tasks and commits under the PRD whose related tasks name them", () => {
    const prd = read(brain, 'core/features/review-sessions.md')
    const entry = sessionEntry(prd, SESSIONS.gqc)
    const text = entry.join('\n')
    expect(text).toContain('spotter-gqc.6')
    expect(text).toContain('spotter-gqc.7')
    for (const line of entry) expect(line).toMatch(/<!-- sources: session:258c7280, \S/)
    // Only that session's work: the other epics are not about review sessions.
    expect(prd).not.toMatch(/spotter-(?:dov|fum)/)
    expect(sessionEntry(prd, SESSIONS.dov)).toEqual([])
    expect(prd).toMatch(/^updated: \d{4}-\d{2}-\d{2}$/m)
  })

  it('finds a PRD through a task that points at it, and through a file it names', () => {
    const prd = read(brain, 'core/features/transcript-rendering.md')
    const fum = sessionEntry(prd, SESSIONS.fum).join('\n')
    for (const task of ['spotter-fum.1', 'spotter-fum.2', 'spotter-fum.3', 'spotter-fum.4'])
      expect(fum).toContain(task)
    const dov = sessionEntry(prd, SESSIONS.dov)
    expect(dov.length).toBeGreaterThan(0)
    expect(dov.join('\n')).toContain('transcript_components.ex')
    expect(prd).not.toMatch(/spotter-gqc/)
  })

  it('files nothing still open as finished, and cuts no sentence', () => {
    for (const slug of ['review-sessions', 'transcript-rendering']) {
      const prd = read(brain, `core/features/${slug}.md`)
      const lines = prd.split('\n').filter((line) => line.startsWith('- '))
      expect(lines.length).toBeGreaterThan(0)
      for (const line of lines) {
        expect(line).not.toMatch(/\bis open\b/)
        expect(line).not.toMatch(/…/)
        expect(line).not.toMatch(/^- +(?:[-*]|\d+\.) /)
      }
      // Every session heading has its list: no orphan headings.
      const all = prd.split('\n')
      for (const [index, line] of all.entries()) {
        if (line.startsWith('### ')) expect(all[index + 1], `${slug}: ${line}`).toMatch(/^- /)
      }
    }
  })

  it('leaves alone the PRDs nothing belongs to, and invents none', () => {
    expect(read(brain, 'core/features/billing.md')).toBe(BILLING_PRD)
    expect(read(brain, 'core/features/login.md')).toBe(LOGIN_PRD)
    const names = readdirSync(join(brain.root, 'core/features')).filter((name) =>
      name.endsWith('.md'),
    )
    expect(names.sort()).toEqual([
      'billing.md',
      'login.md',
      'review-sessions.md',
      'transcript-rendering.md',
    ])
    expect(result.plan.counts.features_updated).toBe(2)
  })

  it('still writes the changelog, and a second sleep run changes nothing', async () => {
    const changelog = JSON.parse(read(brain, 'core/CHANGELOG.json')) as { sources: string[] }[]
    expect(changelog.map((entry) => entry.sources[0]).sort()).toEqual(
      Object.values(SESSIONS).sort(),
    )
    const before = read(brain, 'core/features/review-sessions.md')
    const again = await sleep(brain)
    expect(again.plan.files).toEqual([])
    expect(read(brain, 'core/features/review-sessions.md')).toBe(before)
  })
})
