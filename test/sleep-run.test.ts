/**
 * `sleep run` on a brain built from real Claude Code transcripts (the shared dataset and the demo
 * recordings): every added line cites real sources, a second run changes nothing, a dry run
 * changes nothing, and an interrupted run is finished, never left half-applied.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { SLEEP_RUN_JOURNAL } from '../src/brain/adapters/fs/fs-unit-of-work.ts'
import type { Brain } from '../src/brain/app/brain.ts'
import { runSleep } from '../src/brain/app/run-sleep.ts'
import { sessionStartContext } from '../src/brain/app/session-start.ts'
import { analyzeSession, composeTranscriptUnits } from '../src/brain/compose.ts'
import { composeReadDigest } from '../src/brain/compose-digests.ts'
import { lineCount } from '../src/brain/core/sleep-run/archive-overflow.ts'
import { createExtractiveLanguageModel } from '../src/engine/adapters/llm/extractive-language-model.ts'
import { brainFiles } from './support/brain-snapshot.ts'
import { HAS_SHARED, SHARED_SKIP_REASON } from './support/shared-data.ts'
import { buildBrain, NOW } from './support/sleep-run-brain.ts'

function run(brain: Brain, options: { dryRun?: boolean } = {}) {
  return runSleep(brain, {
    model: createExtractiveLanguageModel(),
    transcriptUnits: composeTranscriptUnits(brain),
    readDigest: composeReadDigest(brain),
    ...options,
  })
}

/** Plans a run and commits its journal without applying it: a run killed at its commit point. */
async function commitPlannedRun(brain: Brain) {
  const planned = await run(brain, { dryRun: true })
  const state = await brain.state.read()
  writeJournal(brain, {
    version: 2,
    id: 'run_crashed',
    epoch: NOW,
    created_at: NOW,
    summary: planned.plan.summary,
    files: planned.plan.files.map((file) => ({
      path: file.path,
      before: file.before,
      text: file.after,
    })),
    triggers: planned.plan.triggers,
    consolidated: {
      sessions: state.sessions
        .filter((session) => session.score !== null)
        .map((session) => ({ session_id: session.session_id, stopped_at: session.stopped_at })),
      bookmarks: state.bookmarks.map((bookmark) => bookmark.id),
    },
  })
  return planned
}

/** Writes the journal as the fs unit of work's commit point does, and applies nothing. */
function writeJournal(brain: Brain, journal: object) {
  writeFileSync(join(brain.root, SLEEP_RUN_JOURNAL), `${JSON.stringify(journal)}\n`)
}

const journalExists = (brain: Brain) => existsSync(join(brain.root, SLEEP_RUN_JOURNAL))

/** Every record uuid of a session's transcript files (main, sub-agents, compactions). */
function recordIds(transcriptPath: string | null): string[] {
  if (!transcriptPath) return []
  const folder = join(transcriptPath.replace(/\.jsonl$/, ''), 'subagents')
  const files = [
    transcriptPath,
    ...(existsSync(folder) ? readdirSync(folder).map((name) => join(folder, name)) : []),
  ]
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/"uuid":"([0-9a-f-]{36})"/g)].map(
      (match) => match[1] ?? '',
    ),
  )
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
      // Digest lines cite transcript records by their first 8 characters, sessions as session:<8>.
      for (const id of recordIds(session.transcript_path)) known.add(id.slice(0, 8))
      known.add(`session:${session.session_id.slice(0, 8)}`)
    }
    const digests = result.plan.files.filter((file) => file.path.startsWith('knowledge/sessions/'))
    expect(digests.length).toBeGreaterThanOrEqual(HAS_SHARED ? 3 : 1)
    for (const digest of digests) {
      for (const line of digest.after.split('\n').filter((line) => /^- /.test(line))) {
        const cited = /<!-- src: ([^>]+) -->$/.exec(line)
        // The digest's working-style tally (commands run most) is counted, not quoted.
        if (line.startsWith('- Commands run most')) continue
        expect(cited, line).not.toBeNull()
        for (const id of cited?.[1]?.split(', ') ?? [])
          expect(known.has(id), `${id} in ${line}`).toBe(true)
      }
    }
    const added = result.plan.files
      .filter((file) => file.path.endsWith('.md') && !digests.includes(file))
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
    // The model and its token usage are recorded with the consolidation (extractive uses none).
    expect(entry).toMatchObject({
      model: 'extractive',
      usage: { input_tokens: 0, output_tokens: 0 },
    })
    expect(result.model).toBe('extractive')
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
    const planned = await commitPlannedRun(brain)
    const first = planned.plan.files[0]
    if (first) writeFileSync(join(brain.root, first.path), first.after)
    expect(journalExists(brain)).toBe(true)

    const next = await run(brain)
    expect(next.recovered).toBe(true)
    expect(next.plan.empty).toBe(true)
    expect(brainFiles(brain.root)).toEqual(expected)
    expect((await brain.state.read()).debt).toBe(0)
    expect(await brain.state.readHistory()).toHaveLength(1)
    expect(await brain.unitOfWork.finishInterrupted()).toBeNull()
  }, 60_000)
})

describe('a new session after an interrupted sleep run', () => {
  it('starts from the finished consolidation, not a half-written brain', async () => {
    const brain = await buildBrain()
    await commitPlannedRun(brain)
    const context = await sessionStartContext(brain, analyzeSession)
    expect(journalExists(brain)).toBe(false)
    expect((await brain.state.read()).debt).toBe(0)
    expect(context.text).toContain('Never write API keys into the sleep ledger')
    expect(context.directive).toBeNull()
  }, 60_000)
})
