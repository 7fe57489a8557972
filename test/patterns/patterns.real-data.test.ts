/**
 * Pattern learning on the real Claude Code sessions of ../shared: the encoded pattern files keep at
 * least half of the developer facts (gotchas, decisions, workflow) of `session-facts.json` by the
 * dataset's own probe rule, every entry is a complete Observation / Details / Context, and the one
 * gotcha all three sessions hit (a push without an upstream) crystallizes into one skill citing all three.
 */
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeEntries, lessonRecall, readReaderLessons } from '../../bench/pattern-judge.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { consolidatePatterns } from '../../src/patterns/app/consolidate-patterns.ts'
import { isCompleteEntry, parsePatternFile } from '../../src/patterns/core/pattern-entry.ts'
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

  it("meets issue 20's targets against the reader's lessons: no wrong fix, recall >= 70 %, noise <= 10 %", () => {
    const reader = readReaderLessons(join(import.meta.dirname, '../../bench/pattern-lessons.json'))
    const entries = Object.entries(encoded.files).flatMap(
      ([name, text]) => parsePatternFile(text, name.replace(/\.md$/, '')).entries,
    )
    const verdicts = judgeEntries(entries, reader)
    const wrong = verdicts.filter((verdict) => verdict.wrongFix)
    expect(wrong.map((verdict) => verdict.entry.title)).toEqual([])
    const recall = lessonRecall(verdicts, reader)
    expect(
      recall.stated / recall.total,
      `missed ${recall.missed.join(', ')}`,
    ).toBeGreaterThanOrEqual(0.7)
    const noise = verdicts.filter((verdict) => verdict.verdict === 'noise')
    expect(
      noise.length / entries.length,
      noise.map((verdict) => verdict.entry.title).join('\n'),
    ).toBeLessThanOrEqual(0.1)
    // The pairings the issue found: lazy_html was not fixed by the shared sandbox, nor by :auto.
    const all = Object.values(encoded.files).join('\n')
    expect(all).not.toMatch(
      /lazy_html[^\n]*\n(?:[^\n]*\n){0,2}- \*\*Details\*\*: [^\n]*Fix: [^\n]*shared sandbox/i,
    )
    expect(all).not.toMatch(/auto mode|`:auto`/)
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

describe.skipIf(!HAS_SHARED)('lessons planted in a copy of a real session', () => {
  it('a failure fixed by a compound command and the user\'s "continue until all are done" are kept', async () => {
    const id = '4d5611e5-241a-462a-8d15-5122611a9569'
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-planted-')))
    try {
      cpSync(join(TRANSCRIPTS_DIR, `${id}.jsonl`), join(folder, `${id}.jsonl`))
      cpSync(join(TRANSCRIPTS_DIR, id), join(folder, id), { recursive: true })
      const last =
        readFileSync(join(folder, `${id}.jsonl`), 'utf8')
          .trim()
          .split('\n')
          .at(-1) ?? '{}'
      const envelope = JSON.parse(last) as Record<string, unknown>
      let second = 0
      const record = (type: string, content: unknown) =>
        JSON.stringify({
          parentUuid: null,
          isSidechain: false,
          userType: 'external',
          cwd: envelope.cwd,
          sessionId: id,
          version: envelope.version,
          gitBranch: envelope.gitBranch,
          type,
          message:
            type === 'user'
              ? { role: 'user', content }
              : { id: `msg_planted_${second}`, role: 'assistant', content },
          uuid: `99999999-0000-4000-8000-${String(++second).padStart(12, '0')}`,
          timestamp: `2026-02-12T23:${String(10 + second).padStart(2, '0')}:00.000Z`,
        })
      const planted = [
        record('user', 'continue until all are done'),
        record('assistant', [
          { type: 'tool_use', id: 'toolu_planted_1', name: 'Bash', input: { command: 'bd ready' } },
        ]),
        record('user', [
          {
            tool_use_id: 'toolu_planted_1',
            type: 'tool_result',
            content:
              "Error: the database is out of sync with the JSONL; run 'bd sync --import-only'",
            is_error: true,
          },
        ]),
        record('assistant', [
          {
            type: 'tool_use',
            id: 'toolu_planted_2',
            name: 'Bash',
            input: { command: 'bd sync --import-only && bd ready' },
          },
        ]),
        record('user', [
          {
            tool_use_id: 'toolu_planted_2',
            type: 'tool_result',
            content: 'Import complete: 2 updated\nReady work (1 issue with no blockers)',
            is_error: false,
          },
        ]),
      ]
      writeFileSync(
        join(folder, `${id}.jsonl`),
        `${readFileSync(join(folder, `${id}.jsonl`), 'utf8').trimEnd()}\n${planted.join('\n')}\n`,
      )
      const encoded = await encodeRealSessions([join(folder, `${id}.jsonl`)])
      try {
        const entries = Object.entries(encoded.files).flatMap(
          ([name, text]) => parsePatternFile(text, name.replace(/\.md$/, '')).entries,
        )
        const sync = entries.find((entry) => /out of sync/.test(entry.observation))
        expect(sync?.details).toContain('`bd sync --import-only && bd ready`')
        const rule = entries.find(
          (entry) =>
            entry.category === 'user-preference' &&
            /continue until all are done/i.test(entry.details),
        )
        expect(rule).toBeDefined()
      } finally {
        rmSync(encoded.base, { recursive: true, force: true })
      }
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 60_000)
})
