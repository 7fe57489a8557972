import { describe, expect, it } from 'vitest'
import { RECALL_FACTS, recallEntry, testRecall } from '../../ports/recall.contract.ts'
import { createSegmentedRecallIndex } from './segmented-recall-index.ts'

testRecall({ name: 'segmented', make: async () => createSegmentedRecallIndex() })

describe('segmented recall index', () => {
  it('ranks the same across segments as in one, and merges small segments', async () => {
    const one = createSegmentedRecallIndex()
    await one.put(RECALL_FACTS)
    const many = createSegmentedRecallIndex()
    for (const entry of RECALL_FACTS) {
      await many.put([entry])
      await many.search({ text: 'flush', limit: 1 })
    }
    expect(many.segments.length).toBe(RECALL_FACTS.length)
    const query = { text: 'staging tests build failed', limit: 10 }
    const ranked = (hits: { id: string; score: number }[]) =>
      hits.map((hit) => [hit.id, hit.score.toFixed(6)])
    expect(ranked(await many.search(query))).toEqual(ranked(await one.search(query)))
    many.compact()
    expect(many.segments.length).toBeLessThanOrEqual(4)
    expect(ranked(await many.search(query))).toEqual(ranked(await one.search(query)))
  })

  it('skips a common term for unreached documents without changing the results', async () => {
    // 40 documents hold a rare word, 20 of them with the common one; 900 hold only the common
    // word, some of them many times. Asked with `in` naming every kind, the search scores every
    // posting (no pruning); asked plainly, the common word only adds to documents already reached.
    const index = createSegmentedRecallIndex()
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon']
    await index.put([
      ...Array.from({ length: 40 }, (_, n) =>
        recallEntry(
          `rare${n}`,
          `lighthouse ${n % 2 === 0 ? 'fix '.repeat(1 + (n % 5)) : ''}${words.slice(0, n % 5).join(' ')}`,
        ),
      ),
      ...Array.from({ length: 900 }, (_, n) =>
        recallEntry(`common${n}`, `${'fix '.repeat(1 + (n % 7))}${words[n % 5]} note ${n}`),
      ),
    ])
    index.compact()
    await index.remove(['rare0', 'rare7', 'common3'])
    const ranked = (hits: { id: string; score: number }[]) =>
      hits.map((hit) => [hit.id, hit.score.toFixed(9)])
    for (const text of ['lighthouse fix', 'fix lighthouse alpha', 'lighthouse beta fix note']) {
      for (const limit of [1, 5, 12]) {
        const pruned = await index.search({ text, limit })
        const full = await index.search({ text, limit, in: ['core'] })
        expect(pruned.length).toBe(limit)
        expect(ranked(pruned)).toEqual(ranked(full))
      }
    }
  })

  it('still scores a common term everywhere when it could lift an unreached document', async () => {
    // The rare word's documents are long (low scores); short documents full of "fix" outrank
    // them, so "fix" may not be cut short for unreached documents.
    const index = createSegmentedRecallIndex()
    const filler = Array.from({ length: 60 }, (_, n) => `word${n}`).join(' ')
    await index.put([
      ...Array.from({ length: 40 }, (_, n) => recallEntry(`rare${n}`, `lighthouse ${filler}`)),
      ...Array.from({ length: 300 }, (_, n) =>
        recallEntry(`fix${n}`, `${'fix '.repeat(1 + (n % 9))}`),
      ),
      ...Array.from({ length: 1700 }, (_, n) => recallEntry(`other${n}`, `other note ${n}`)),
    ])
    const pruned = await index.search({ text: 'lighthouse fix', limit: 3 })
    const full = await index.search({ text: 'lighthouse fix', limit: 3, in: ['core'] })
    expect(pruned.map((hit) => hit.id)).toEqual(full.map((hit) => hit.id))
    expect(pruned[0]?.id.startsWith('fix')).toBe(true)
  })

  it('rewrites a segment once a third of it is dead', async () => {
    const index = createSegmentedRecallIndex()
    await index.put(
      Array.from({ length: 10 }, (_, n) => recallEntry(`e${n}`, `entry number ${n} about caching`)),
    )
    index.compact()
    await index.remove(['e0', 'e1', 'e2', 'e3'])
    index.compact()
    expect(index.segments).toHaveLength(1)
    expect(index.segments[0]?.reader.count).toBe(6)
    expect(await index.search({ text: 'caching', limit: 20 })).toHaveLength(6)
  })
})

describe('recall shelf on disk', () => {
  it('answers from its files in a new process, and does not re-index what did not change', async () => {
    const { mkdtempSync, readdirSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { openRecallShelf } = await import('./recall-shelf-file.ts')
    const folder = mkdtempSync(join(tmpdir(), 'somnus-shelf-'))
    const first = openRecallShelf(folder, '.recall-test.json')
    expect(first.existed).toBe(false)
    await first.index.put(RECALL_FACTS)
    first.stamps.set('notes.md', { stamp: '1', ids: RECALL_FACTS.map((entry) => entry.id) })
    await first.save()
    const again = openRecallShelf(folder, '.recall-test.json')
    expect(again.existed).toBe(true)
    expect(again.stamps.get('notes.md')).toMatchObject({
      stamp: '1',
      ids: RECALL_FACTS.map((entry) => entry.id),
    })
    const query = { text: 'staging tests', limit: 5 }
    expect(await again.index.search(query)).toEqual(await first.index.search(query))
    await again.index.remove(['tests'])
    await again.save()
    const third = openRecallShelf(folder, '.recall-test.json')
    expect((await third.index.search(query)).map((hit) => hit.id)).not.toContain('tests')
    expect(readdirSync(folder).filter((name) => name.endsWith('.seg')).length).toBeGreaterThan(0)
  })

  it("takes a FIFO planted in a segment's place for no index, without blocking", async () => {
    const { execFileSync, spawn } = await import('node:child_process')
    const { mkdtempSync, readdirSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { openRecallShelf } = await import('./recall-shelf-file.ts')
    const folder = mkdtempSync(join(tmpdir(), 'somnus-shelf-'))
    const shelf = openRecallShelf(folder, '.recall-test.json')
    await shelf.index.put(RECALL_FACTS)
    await shelf.save()
    const segment = join(folder, readdirSync(folder).find((name) => name.endsWith('.seg')) ?? '')
    rmSync(segment)
    execFileSync('mkfifo', [segment])
    // A writer that turns up after 2 s frees a blocked open(), so the old code fails, not hangs.
    const writer = spawn('sh', ['-c', `sleep 2; : > "${segment}"`], { stdio: 'ignore' })
    try {
      const started = Date.now()
      const planted = openRecallShelf(folder, '.recall-test.json')
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(planted.existed).toBe(false)
    } finally {
      writer.kill('SIGKILL')
    }
  })
})
