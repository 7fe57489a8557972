/**
 * The behaviour every `RecallIndex` adapter must show; each adapter's test runs this suite (the
 * in-process library, SQL full-text search on PGlite and PostgreSQL). `make` gives a fresh, empty
 * index each call (a SQL adapter: a fresh scope or tenant in a shared database).
 */
import { expect, it } from 'vitest'
import { type ContractOptions, describeContract } from './describe-contract.contract.ts'
import type { RecallEntry, RecallIndex } from './recall.ts'

/** An entry with defaults for what a test does not care about. */
export function recallEntry(
  id: string,
  text: string,
  overrides: Partial<RecallEntry> = {},
): RecallEntry {
  return {
    id,
    kind: 'core',
    location: `notes.md:${id}`,
    text,
    date: null,
    sources: [],
    ...overrides,
  }
}

/** Facts of the sort a brain keeps, one per entry. */
export const RECALL_FACTS: RecallEntry[] = [
  recallEntry(
    'build',
    'The build failed because NODE_OPTIONS lacked --max-old-space-size=4096; setting it fixed the build.',
    { kind: 'sessions', date: '2026-03-02', sources: ['s1', 's1:a1'] },
  ),
  recallEntry('pnpm', 'Always use pnpm in this repository, never npm.', {
    kind: 'core',
    date: '2026-02-10',
    sources: ['s0'],
  }),
  recallEntry('deploy', 'We deploy to staging with scripts/deploy.sh before every release.', {
    kind: 'knowledge',
    date: '2026-03-05T09:30:00Z',
  }),
  recallEntry('retry', 'Decided to keep the retry limit at 3 after the flaky payment test.', {
    kind: 'sessions',
    date: '2026-03-01',
  }),
  recallEntry('tests', 'The integration tests are failing on the staging database since Monday.', {
    kind: 'transcripts',
    date: '2026-03-06T12:00:00Z',
  }),
]

/** Registers the contract tests for indexes made by `make` (a fresh, empty index each call). */
export function testRecall(options: ContractOptions<RecallIndex>): void {
  const { make } = options
  const filled = async (entries: readonly RecallEntry[] = RECALL_FACTS) => {
    const index = await make()
    await index.put(entries)
    return index
  }
  const ids = (hits: { id: string }[]) => hits.map((hit) => hit.id)

  describeContract('RecallIndex', options, () => {
    it('finds nothing in an empty index', async () => {
      const index = await make()
      expect(await index.search({ text: 'build', limit: 5 })).toEqual([])
    })

    it('returns a hit with everything that was put, and nothing for words no entry has', async () => {
      const index = await filled()
      const [hit, ...rest] = await index.search({ text: 'NODE_OPTIONS', limit: 5 })
      expect(rest).toEqual([])
      expect(hit).toMatchObject({
        id: 'build',
        kind: 'sessions',
        location: 'notes.md:build',
        text: RECALL_FACTS[0]?.text,
        date: '2026-03-02',
        sources: ['s1', 's1:a1'],
      })
      expect(hit?.score).toBeGreaterThan(0)
      expect(await index.search({ text: 'kubernetes helm', limit: 5 })).toEqual([])
    })

    it('matches other forms of a word, in any case', async () => {
      const index = await filled()
      expect(ids(await index.search({ text: 'Deploying', limit: 5 }))).toContain('deploy')
      expect(ids(await index.search({ text: 'test failed', limit: 5 }))).toEqual(
        expect.arrayContaining(['tests', 'retry']),
      )
      expect(ids(await index.search({ text: 'REPOSITORIES', limit: 5 }))).toEqual(['pnpm'])
    })

    it('ranks the entry that shares more of the question first, scores falling', async () => {
      const index = await filled()
      const hits = await index.search({
        text: 'why are the staging integration tests failing',
        limit: 5,
      })
      expect(hits[0]?.id).toBe('tests')
      const scores = hits.map((hit) => hit.score)
      expect(scores).toEqual([...scores].sort((a, b) => b - a))
      const again = await index.search({
        text: 'why are the staging integration tests failing',
        limit: 5,
      })
      expect(ids(again)).toEqual(ids(hits))
    })

    it('gives at most `limit` hits', async () => {
      const many = Array.from({ length: 30 }, (_, index) =>
        recallEntry(`line-${index}`, `Release note ${index}: the release went out.`),
      )
      const index = await filled(many)
      expect(await index.search({ text: 'release', limit: 7 })).toHaveLength(7)
      expect(await index.search({ text: 'release', limit: 1 })).toHaveLength(1)
    })

    it('keeps to the kinds named by `in`', async () => {
      const index = await filled()
      const hits = await index.search({
        text: 'staging deploy test build',
        limit: 10,
        in: ['sessions'],
      })
      expect(ids(hits).sort()).toEqual(['build', 'retry'])
      const two = await index.search({
        text: 'staging deploy test build',
        limit: 10,
        in: ['knowledge', 'transcripts'],
      })
      expect(ids(two).sort()).toEqual(['deploy', 'tests'])
      expect(await index.search({ text: 'staging', limit: 10, in: [] })).toHaveLength(2)
    })

    it('keeps to entries dated on or after `since`, undated ones left out', async () => {
      const index = await filled([
        ...RECALL_FACTS,
        recallEntry('undated', 'The staging test runner is slow.'),
      ])
      const query = { text: 'staging test', limit: 10 }
      expect(ids(await index.search(query))).toContain('undated')
      expect(ids(await index.search({ ...query, since: '2026-03-05' })).sort()).toEqual([
        'deploy',
        'tests',
      ])
      expect(ids(await index.search({ ...query, since: '2026-03-06T00:00:00Z' }))).toEqual([
        'tests',
      ])
      expect(await index.search({ ...query, since: '2027-01-01' })).toEqual([])
    })

    it('replaces an entry put again under its id, and forgets removed ones', async () => {
      const index = await filled()
      await index.put([recallEntry('pnpm', 'Use yarn berry for workspaces.', { kind: 'core' })])
      expect(await index.search({ text: 'pnpm', limit: 5 })).toEqual([])
      expect(ids(await index.search({ text: 'yarn', limit: 5 }))).toEqual(['pnpm'])
      await index.remove(['pnpm', 'no-such-id'])
      expect(await index.search({ text: 'yarn', limit: 5 })).toEqual([])
      expect(ids(await index.search({ text: 'staging', limit: 5 })).sort()).toEqual([
        'deploy',
        'tests',
      ])
    })

    it('finds an entry by its context words without showing them', async () => {
      const index = await filled([
        recallEntry('note', 'Run the migrations before seeding.', {
          kind: 'knowledge',
          context: 'Database setup checklist',
        }),
      ])
      const [hit] = await index.search({ text: 'checklist', limit: 5 })
      expect(hit?.id).toBe('note')
      expect(hit?.snippet).not.toContain('checklist')
    })

    it('cuts a long text to a snippet within the budget, around the words that matched', async () => {
      const filler = 'Nothing of note happened in this part of the session. '.repeat(40)
      const text = `${filler}Finally the flamegraph showed the regex backtracking. ${filler}`
      const index = await filled([recallEntry('long', text)])
      const [hit] = await index.search({ text: 'flamegraph', limit: 1, snippetChars: 120 })
      expect(hit?.text).toBe(text)
      expect(hit?.snippet.length).toBeLessThanOrEqual(120)
      expect(hit?.snippet).toContain('flamegraph')
      const [short] = await index.search({ text: 'flamegraph', limit: 1 })
      expect(short?.snippet.length).toBeLessThanOrEqual(300)
      const [whole] = await (await filled()).search({ text: 'pnpm', limit: 1 })
      expect(whole?.snippet).toBe(RECALL_FACTS[1]?.text)
    })

    it('takes any characters as words, never as query syntax', async () => {
      const index = await filled()
      for (const text of [
        '"unclosed',
        'a:b & | ! ( ) * ?',
        "it's -not- OR AND NOT",
        '\\ / < > { } [ ] ~ ^ $ % #',
        '',
        '   ',
        'the and of',
        'NUL\0byte',
        '😀 ümlaut straße',
      ]) {
        await expect(
          index.search({ text, limit: 5 }),
          JSON.stringify(text),
        ).resolves.toBeInstanceOf(Array)
      }
      expect(ids(await index.search({ text: '(pnpm)!', limit: 5 }))).toEqual(['pnpm'])
    })

    it('keeps many entries put in batches, and finds the rare one', async () => {
      const index = await make()
      for (let batch = 0; batch < 4; batch += 1) {
        await index.put(
          Array.from({ length: 250 }, (_, item) =>
            recallEntry(
              `b${batch}-${item}`,
              `Routine turn ${batch}-${item}: edited a file and ran the tests.`,
            ),
          ),
        )
      }
      await index.put([recallEntry('rare', 'The tests hang because the websocket never closes.')])
      const [first] = await index.search({ text: 'websocket tests', limit: 3 })
      expect(first?.id).toBe('rare')
      expect(await index.search({ text: 'routine', limit: 50 })).toHaveLength(50)
    })
  })
}
