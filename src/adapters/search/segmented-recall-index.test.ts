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
