/**
 * Issue 20, encoding: within a session, distinct lessons stay distinct whatever else the pattern
 * folder holds, and what the command line prints is what was written; the final encode of a
 * session replaces what its partial encodes wrote; a session id keeps its case; an entry id is
 * never issued twice, even after its entry has left the folder. Each case failed before.
 */
import { describe, expect, it } from 'vitest'
import type { SessionDigest } from '../../src/engine/core/digest/session-digest.ts'
import { encodePatterns } from '../../src/patterns/app/encode-patterns.ts'
import { parsePatternFile } from '../../src/patterns/core/pattern-entry.ts'
import { memoryPatternWorkspace } from '../support/pattern-workspace.ts'
import { fixtureDigest, fixtureItem } from '../support/session-digest-fixture.ts'

/** Two distinct lessons that share most of their words (two `mix test` failures of one session). */
const LAZY =
  '`** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.` in `mix test` → add `{:lazy_html, ">= 0.1.0", only: :test}` to `mix.exs`, then `mix deps.get`'
const SECRET =
  '`** (RuntimeError) no :secret_key_base configuration found in SpotterWeb.Endpoint.` in `mix test` → add the endpoint config with a `secret_key_base` to `config/test.exs`'

function digest(sessionId: string, gotchas: string[], date = '2026-02-11'): SessionDigest {
  return fixtureDigest({
    sessionId,
    date,
    gotchas: gotchas.map((text) => fixtureItem(text, 'abcd1234')),
  })
}

async function entriesOf(patterns: { read(path: string): Promise<string | null> }, domain: string) {
  return parsePatternFile((await patterns.read(`${domain}.md`)) ?? '', domain).entries
}

describe('within a session', () => {
  it('keeps two similar lessons as two entries, in an empty folder and in one shared with other sessions', async () => {
    // Two lessons of one session worded alike: before, the folder's other entries decided whether
    // they were one (the second overwrote the first, and the result still counted it).
    const near = [
      '`LiveView test fails: missing lazy_html in the test dependencies of the project` in `mix test` → add it to the test dependencies',
      '`LiveView test fails: missing secret_key_base in the test config of the project` in `mix test` → add it to the test config',
    ]
    const empty = memoryPatternWorkspace('2026-02-11')
    const alone = await encodePatterns(empty.workspace, { digest: digest('s1', near) })
    expect(alone.added).toHaveLength(2)

    const shared = memoryPatternWorkspace('2026-02-11')
    for (let other = 0; other < 12; other += 1)
      await encodePatterns(shared.workspace, {
        digest: digest(`o${other}`, [
          `\`fatal: branch b${other} has no upstream\` in \`git push\` → \`git push -u origin b${other}\``,
        ]),
      })
    const result = await encodePatterns(shared.workspace, { digest: digest('s1', near) })
    expect(result.added).toHaveLength(2)
    expect(result.updated).toHaveLength(0)
    const mine = (
      await Promise.all(
        (
          await shared.patterns.list('', '.md')
        ).map(
          async (name) =>
            parsePatternFile((await shared.patterns.read(name)) ?? '', name.slice(0, -3)).entries,
        ),
      )
    )
      .flat()
      .filter((entry) => entry.sources[0] === 's1')
    // What the result says was added is what the files hold: both lessons.
    expect(mine.map((entry) => entry.id).sort()).toEqual(
      result.added.map((entry) => entry.id).sort(),
    )
    expect(mine.map((entry) => entry.title).join('\n')).toMatch(
      /lazy_html[\s\S]*secret_key_base|secret_key_base[\s\S]*lazy_html/,
    )
  })

  it("the final encode replaces what the session's partial encodes wrote", async () => {
    const { workspace, patterns } = memoryPatternWorkspace('2026-02-11')
    // Stop encoded the session while it was still failing the wrong way round.
    const partial = await encodePatterns(workspace, {
      digest: digest('S1', [
        LAZY,
        '`Assertion with =~ failed` in `mix test` → use the `:auto` sandbox mode',
      ]),
    })
    expect(partial.added).toHaveLength(2)
    const final = await encodePatterns(workspace, { digest: digest('S1', [LAZY, SECRET]) })
    expect(final.updated.map((entry) => entry.id)).toEqual([partial.added[0]?.id])
    expect(final.removed.map((entry) => entry.title)).toEqual([
      expect.stringContaining('Assertion'),
    ])
    expect(final.added).toHaveLength(1)
    const all = [
      ...(await entriesOf(patterns, 'elixir')),
      ...(await entriesOf(patterns, 'testing')),
      ...(await entriesOf(patterns, 'general')),
    ]
    expect(all.map((entry) => entry.title).join('\n')).not.toContain(':auto')
    expect(all).toHaveLength(2)
  })

  it('a session id keeps its case, so encoding it again updates instead of duplicating', async () => {
    const { workspace, patterns } = memoryPatternWorkspace('2026-02-11')
    await encodePatterns(workspace, { digest: digest('Session-ABC', [LAZY]) })
    const again = await encodePatterns(workspace, { digest: digest('Session-ABC', [LAZY]) })
    expect(again.added).toHaveLength(0)
    expect(again.updated).toHaveLength(1)
    const text = [
      (await patterns.read('elixir.md')) ?? '',
      (await patterns.read('testing.md')) ?? '',
    ].join('')
    expect(text).toContain('sources: [Session-ABC,')
    expect(text).not.toContain('session-abc')
  })
})

describe('entry ids', () => {
  it('are never issued twice, even once their entries have left the folder', async () => {
    const { workspace, patterns } = memoryPatternWorkspace('2026-02-11')
    const first = await encodePatterns(workspace, { digest: digest('S1', [LAZY]) })
    const firstId = first.added[0]?.id ?? ''
    // Consolidation (or a prune) takes the entry out of the pattern files.
    for (const name of await patterns.list('', '.md')) await patterns.write(name, '')
    // A file written by an earlier Somnus used the lesson's words alone: plant one id it holds.
    await patterns.write(
      'old.md',
      `---\nid: ${firstId}-2\ndomain: old\ndate: 2026-02-11\ncategory: gotcha\ntags: []\nsources: [S0]\nstatus: active\n---\n### Old\n\n- **Observation**: an old entry\n- **Details**: Fix: something old\n- **Context**: Working in this project.\n`,
    )
    const second = await encodePatterns(workspace, {
      digest: digest('S2', [LAZY.replace('dependency', 'dependency!')]),
    })
    const again = await encodePatterns(workspace, { digest: digest('S1', [LAZY]) })
    const ids = [
      firstId,
      `${firstId}-2`,
      ...second.added.map((e) => e.id),
      ...again.added.map((e) => e.id),
    ]
    expect(new Set(ids).size).toBe(ids.length)
    // The same lesson of the same session, encoded again after it left, gets a new id, not its old one.
    expect(again.added[0]?.id).not.toBe(firstId)
  })
})
