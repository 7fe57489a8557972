/**
 * Pattern learning on the real Claude Code sessions of ../shared: the encoded pattern files keep at
 * least half of the developer facts (gotchas, decisions, workflow) of `session-facts.json` by the
 * dataset's own probe rule, every entry is a complete Observation / Details / Context, and the one
 * gotcha all three sessions hit (a push without an upstream) crystallizes into one skill citing all three.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consolidatePatterns } from '../../src/app/patterns/consolidate-patterns.ts'
import { isCompleteEntry, parsePatternFile } from '../../src/core/patterns/pattern-entry.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { encodeRealSessions, FACT_SESSIONS } from '../support/encode-real-sessions.ts'
import { factRecall, readSessionFacts } from '../support/fact-recall.ts'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../support/shared-data.ts'

describe.skipIf(!HAS_SHARED)('patterns on real Claude Code sessions', () => {
  let encoded: Awaited<ReturnType<typeof encodeRealSessions>>

  beforeAll(async () => {
    encoded = await encodeRealSessions(
      FACT_SESSIONS.map((id) => join(TRANSCRIPTS_DIR, `${id}.jsonl`)),
    )
  }, 60_000)

  afterAll(() => {
    if (encoded) rmSync(encoded.base, { recursive: true, force: true })
  })

  it('keeps at least half of the gotcha, decision and workflow facts', () => {
    const facts = readSessionFacts(join(TRANSCRIPTS_DIR, 'session-facts.json'), [
      'gotcha',
      'decision',
      'workflow',
    ])
    const recall = factRecall(facts, Object.values(encoded.files).join('\n'))
    expect(recall.total).toBe(16)
    expect(recall.kept / recall.total, `missed ${recall.missed.join(', ')}`).toBeGreaterThanOrEqual(
      0.5,
    )
  })

  it('writes only complete entries, each citing its session first, in user scope', () => {
    const entries = Object.entries(encoded.files).flatMap(
      ([name, text]) => parsePatternFile(text, name.replace(/\.md$/, '')).entries,
    )
    expect(entries.length).toBeGreaterThan(10)
    for (const entry of entries) {
      expect(isCompleteEntry(entry), entry.title).toBe(true)
      expect(FACT_SESSIONS).toContain(entry.sources[0])
    }
    expect(
      encoded.workspace.patternsDir.startsWith(join(encoded.home, '.claude', 'rem', 'patterns')),
    ).toBe(true)
    expect(encoded.workspace.patternsDir).toMatch(/[0-9a-f]{16}$/)
  })

  it('states gotchas as symptom and fix, not narration', () => {
    const git = parsePatternFile(encoded.files['git.md'] ?? '', 'git').entries
    const push = git.filter((entry) => /no upstream branch/.test(entry.observation))
    expect(push.map((entry) => entry.sources[0]).sort()).toEqual([...FACT_SESSIONS].sort())
    for (const entry of push)
      expect(entry.details).toMatch(/Fix: `git push --set-upstream origin spotter-/)
    const all = Object.values(encoded.files).join('\n')
    expect(all).not.toMatch(/\*\*Observation\*\*: (?:Let me|Now let me|I'll)\b/)
  })

  it('crystallizes the gotcha all three sessions hit into one skill with three citations', async () => {
    const result = await consolidatePatterns(encoded.workspace, {
      model: createExtractiveLanguageModel(),
    })
    const push = result.skills.filter((skill) =>
      skill.citations.some((citation) => /no upstream branch/.test(citation)),
    )
    expect(push).toHaveLength(1)
    expect(push[0]?.citations).toHaveLength(3)
    expect(result.memory?.added).toContain(push[0]?.name)
  })
})
