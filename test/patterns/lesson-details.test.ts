/**
 * Issue 20, the details a reader meets: a lesson's domain is the tool's or the file's it is about
 * (SQLite is not postgres); the SessionStart index shows the newest and most reused lessons
 * across domains, not the alphabetically first domain's; a workflow rule holds commands only (a
 * commit message's lines are none); `--model` is given the digest's material. Each failed before.
 */
import { describe, expect, it } from 'vitest'
import type { LanguageModel } from '../../src/engine/ports/language-model.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { encodePatterns } from '../../src/patterns/app/encode-patterns.ts'
import { lessonsFromDigest } from '../../src/patterns/core/digest-lessons.ts'
import type { PatternEntry } from '../../src/patterns/core/pattern-entry.ts'
import { renderPatternIndex } from '../../src/patterns/core/pattern-index.ts'
import { digestOfLines, memoryPatternWorkspace } from '../support/pattern-workspace.ts'
import { fixtureDigest, fixtureItem } from '../support/session-digest-fixture.ts'

describe('domains', () => {
  it("an SQLite migration lesson is SQLite's, a `mix test` failure Elixir's, a push git's", () => {
    const lessons = lessonsFromDigest(
      fixtureDigest({
        sessionId: 's1',
        gotchas: [
          fixtureItem(
            'Auto-generated migration uses ALTER TABLE MODIFY (unsupported in SQLite for nullability): Rewrote the migration as a table rewrite (rename, create, copy, drop).',
            'abcd1234',
          ),
          fixtureItem(
            '`** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.` in `mix test` → `mix.exs`: `{:lazy_html, ">= 0.1.0", only: :test}`',
            'abcd1234',
          ),
          fixtureItem(
            '`fatal: The current branch x has no upstream branch.` in `git push` → `git push --set-upstream origin x`',
            'abcd1234',
          ),
        ],
      }),
    )
    expect(lessons.map((lesson) => lesson.domain)).toEqual(['sqlite', 'elixir', 'git'])
  })
})

describe('the SessionStart index', () => {
  const entry = (domain: string, date: string, title: string, session: string): PatternEntry => ({
    id: `${date}-${session}`,
    domain,
    date,
    category: 'gotcha',
    tags: [],
    sources: [session],
    status: 'active',
    title,
    observation: 'o',
    details: 'd',
    context: 'c',
  })

  it('shows the newest and the most reused lessons across domains', () => {
    const entries = [
      // A busy, alphabetically first domain with many old one-off lessons.
      ...Array.from({ length: 8 }, (_, index) =>
        entry('ash', `2026-01-0${index + 1}`, `Ash lesson ${index}`, `a${index}`),
      ),
      // One lesson told by three sessions, in three worktrees (its branch names differ).
      entry('git', '2026-01-10', '`git push` fails: no upstream for spotter-gqc', 'g1'),
      entry('git', '2026-01-11', '`git push` fails: no upstream for spotter-dov', 'g2'),
      entry('git', '2026-01-12', '`git push` fails: no upstream for spotter-fum', 'g3'),
      // The newest lesson, of another domain.
      entry('node', '2026-02-01', '`node build.js` must run inside assets/', 'n1'),
    ]
    const lines = renderPatternIndex(entries, 3)
      .split('\n')
      .filter((line) => line.startsWith('- '))
    expect(lines).toEqual([
      '- 2026-02-01 node: `node build.js` must run inside assets/',
      '- 2026-01-12 git: `git push` fails: no upstream for spotter-fum (3 sessions)',
      '- 2026-01-08 ash: Ash lesson 7',
    ])
  })
})

describe('the workflow', () => {
  it('holds commands only: the lines of a quoted commit message are none', () => {
    const session = 'wwww1111'
    let counter = 0
    const uuid = () => `${session}-0000-4000-8000-${String(++counter).padStart(12, '0')}`
    const stamp = () => `2026-02-11T10:${String(Math.min(59, counter)).padStart(2, '0')}:00Z`
    const line = (type: string, content: unknown) =>
      JSON.stringify({
        type,
        uuid: uuid(),
        sessionId: session,
        cwd: '/project',
        timestamp: stamp(),
        message:
          type === 'user'
            ? { role: 'user', content }
            : { id: `m${counter}`, role: 'assistant', content },
      })
    const lines = [line('user', 'Do the epic')]
    for (const task of [1, 2, 3]) {
      for (const command of [
        `bd update app-${task} --status in_progress`,
        'mix test',
        `bd close app-${task}`,
        `git add lib && git commit -m "feat: task ${task}\n\nCo-Authored-By: Claude <noreply@example.com>"`,
      ]) {
        const id = `toolu_${task}_${counter}`
        lines.push(line('assistant', [{ type: 'tool_use', id, name: 'Bash', input: { command } }]))
        const output = command.startsWith('git add')
          ? `[main a1b2c3${task}] feat: task ${task}`
          : 'ok'
        lines.push(
          line('user', [
            { type: 'tool_result', tool_use_id: id, content: output, is_error: false },
          ]),
        )
      }
    }
    const digest = digestOfLines(lines)
    const rule = lessonsFromDigest(digest).find((lesson) => lesson.category === 'convention')
    expect(rule?.details).toBe(
      'Rule: For each task, run `bd update --status in_progress` → `mix test` → `bd close` → `git add` → `git commit`, in this order.',
    )
    expect(rule?.details).not.toContain('Co-Authored-By')
  })
})

describe('--model', () => {
  it("is given the digest's material: gotchas, decisions, the user's words", async () => {
    const seen: string[] = []
    const base = createExtractiveLanguageModel()
    const model: LanguageModel = {
      ...base,
      name: 'recording',
      extractPatterns: async (request) => {
        seen.push(...request.units.map((unit) => `${unit.speaker}: ${unit.text}`))
        return { value: [], model: 'recording', usage: { input_tokens: 0, output_tokens: 0 } }
      },
    }
    const { workspace } = memoryPatternWorkspace('2026-03-02')
    await encodePatterns(workspace, {
      model,
      digest: fixtureDigest({
        gotchas: [fixtureItem('`boom` in `mix test` → add the missing import', 'aaaa0001')],
        decisions: [
          fixtureItem(
            'Keep tokens in ETS, not a table, because they live two minutes.',
            'aaaa0002',
          ),
        ],
        preferences: [fixtureItem('In the user\'s words: "never push to main"', 'aaaa0003')],
      }),
    })
    expect(seen).toEqual([
      'gotcha: `boom` in `mix test` → add the missing import',
      'decision: Keep tokens in ETS, not a table, because they live two minutes.',
      'user: In the user\'s words: "never push to main"',
    ])
  })
})
