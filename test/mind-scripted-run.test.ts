/**
 * Issue 12's scripted run: 300 actions through the library on a real folder, the default offline
 * extractive mind, an injected clock (30 s per action). The creature sleeps voluntarily every 20
 * actions, naps twice, tries to sleep too soon once, and once goes 80 actions without sleeping.
 * Expected by the seed's rules (worked out by hand):
 *   dreams after actions 20, 40, 60, 80, 100 (voluntary, 660 s apart), 180 (forced: 80 actions
 *   since the dream at 100; the warning came at 160), 200 (600 s + the 300 s forced sleep later),
 *   220, 240, 260 (the 10th dream: deep sleep), 280, 300; the naps at 110 and 120 (10 s) and the
 *   sleep at 205 (210 s after the last dream) only pause.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
import { createMind } from '../src/mind/create-mind.ts'

const VOLUNTARY = new Set([20, 40, 60, 80, 100, 200, 220, 240, 260, 280, 300])
const NAPS = new Set([110, 120])
const TOO_SOON = new Set([205])
const PROJECTS = ['janee', 'openseed', 'somnus']

/** Deterministic, varied work: PRs, deadlines, failures and fixes. */
function step(index: number): { thought: string; command: string; output: string } {
  const project = PROJECTS[index % 3] as string
  const pr = 40 + (index % 13)
  if (index % 17 === 0)
    return {
      thought: `The deadline for ${project} release ${index % 5}.0 is Friday.`,
      command: `gh issue view ${index}`,
      output: `Issue #${index}: release checklist, due Friday`,
    }
  if (index % 11 === 0)
    return {
      thought: `PR #${pr} on ${project} needs a rebase.`,
      command: `gh pr merge ${pr}`,
      output: `PR #${pr} merged into main`,
    }
  if (index % 7 === 0)
    return {
      thought: `Tests on ${project} keep failing in auth.`,
      command: 'npm test',
      output: `Error: ${index % 3} tests failed in auth.spec.ts`,
    }
  return {
    thought: `Reading ${project} file ${index % 9} to understand the config loader.`,
    command: `cat src/config-${index % 9}.ts`,
    output: `export const config${index % 9} = { retries: ${index % 4} }`,
  }
}

describe('a creature over 300 actions (library, real folder, extractive mind)', () => {
  it('dreams at the right times, deep-sleeps at the 10th dream, and writes the seed formats', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'somnus-300-')), '.self')
    let now = Date.parse('2026-02-12T08:00:00Z')
    const mind = createMind({
      folder,
      location: '.self',
      clock: { now: () => new Date(now) },
      ids: sequentialIds(),
    })
    const dreamsAt: number[] = []
    const deepAt: number[] = []
    const warningsAt: number[] = []
    const pausesAt: number[] = []
    const note = (action: number, result: Awaited<ReturnType<typeof mind.sleep>>) => {
      if (result.dream) dreamsAt.push(action)
      else pausesAt.push(action)
      if (result.deep) deepAt.push(action)
    }
    for (let action = 1; action <= 300; action += 1) {
      now += 30_000
      const { thought, command, output } = step(action)
      await mind.record({ role: 'assistant', content: thought })
      const result = await mind.action({ tool: 'bash', content: `$ ${command}\n${output}` })
      if (result.warning) warningsAt.push(action)
      if (result.forcedSleep) {
        note(action, result.forcedSleep)
        now += result.forcedSleep.sleep.seconds * 1000
        await mind.wake()
      }
      const seconds = VOLUNTARY.has(action) || TOO_SOON.has(action) ? 60 : NAPS.has(action) ? 10 : 0
      if (seconds > 0) {
        note(action, await mind.sleep({ seconds }))
        now += seconds * 1000
        await mind.wake()
      }
    }

    expect(dreamsAt).toEqual([20, 40, 60, 80, 100, 180, 200, 220, 240, 260, 280, 300])
    expect(deepAt).toEqual([260])
    expect(warningsAt).toEqual([160])
    expect(pausesAt).toEqual([110, 120, 205])

    // dreams.jsonl: one JSON line per dream, public code's fields; every action accounted for.
    const dreams = readFileSync(join(folder, 'dreams.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(dreams).toHaveLength(12)
    for (const dream of dreams) {
      expect(Object.keys(dream)).toEqual(
        expect.arrayContaining(['t', 'actions', 'reflection', 'priority', 'observations', 'deep']),
      )
      expect(dream.kind).toBe('full')
      expect(dream.priority.length).toBeLessThanOrEqual(200)
      expect(dream.observations).toBeGreaterThan(0)
    }
    expect(dreams.map((dream) => dream.actions)).toEqual([
      20, 20, 20, 20, 20, 80, 20, 20, 20, 20, 20, 20,
    ])
    expect((await mind.status()).actions).toBe(0)

    // observations.md: the seed's format, line by line; every dream's lines follow its marker.
    const observations = readFileSync(join(folder, 'observations.md'), 'utf8')
    const lines = observations.split('\n')
    expect(lines[0]).toBe('# Observations')
    for (const line of lines.slice(1)) {
      expect(line).toMatch(
        /^$|^## \d{4}-\d{2}-\d{2}$|^<!-- dream dream_[0-9a-f]{8} -->$|^(RED|YLW|GRN) ([01]\d|2[0-3]):[0-5]\d \S.*$/,
      )
    }
    expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## 2026-02-12'])
    for (const dream of dreams) expect(observations).toContain(`<!-- dream ${dream.id} -->`)

    // Deep sleep: priorities rewritten (3-5), a diary entry, and whatever it pruned is archived.
    const priorities = readFileSync(join(folder, 'priorities.md'), 'utf8')
    const items = priorities.split('\n').filter((line) => /^\d\. /.test(line))
    expect(items.length).toBeGreaterThanOrEqual(3)
    expect(items.length).toBeLessThanOrEqual(5)
    const diary = readFileSync(join(folder, 'diary.md'), 'utf8')
    expect(diary.match(/^## 2026-02-12 — deep sleep \(dream dream_0000000a\)$/gm)).toHaveLength(1)
    const kept = dreams.reduce((sum, dream) => sum + dream.observations, 0)
    const current = lines.filter((line) => /^(RED|YLW|GRN) /.test(line)).length
    const archived =
      current < kept
        ? readFileSync(join(folder, 'observations-archive.md'), 'utf8')
            .split('\n')
            .filter((line) => /^(RED|YLW|GRN) /.test(line)).length
        : 0
    expect(current + archived).toBe(kept)

    // conversation.jsonl: total recall of all 300 actions and thoughts, one warning, a wake line per sleep.
    const conversation = readFileSync(join(folder, 'conversation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(conversation.filter((entry) => entry.role === 'tool')).toHaveLength(300)
    expect(conversation.filter((entry) => entry.role === 'assistant')).toHaveLength(300)
    expect(conversation.filter((entry) => entry.kind === 'warning')).toHaveLength(1)
    expect(conversation.filter((entry) => entry.kind === 'wake')).toHaveLength(15)
    for (const entry of conversation)
      expect(entry).toEqual(
        expect.objectContaining({
          t: expect.any(String),
          role: expect.any(String),
          content: expect.any(String),
        }),
      )

    const hits = await mind.recall('auth.spec.ts tests failed', 3)
    expect(hits[0]?.text).toMatch(/auth/)
    // The diary names open failures too (its "Open now" list).
    expect(hits[0]?.file).toMatch(/conversation\.jsonl|observations|diary/)
  })
})
