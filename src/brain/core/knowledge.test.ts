import { describe, expect, it } from 'vitest'
import { isStale, isWarm, listKnowledge, parseKnowledge, renderNewKnowledge } from './knowledge.ts'

const now = new Date('2026-03-01T12:00:00Z')

describe('knowledge files', () => {
  it('round-trip through create and parse', () => {
    const text = renderNewKnowledge({
      title: 'JWT auth flow',
      summary: null,
      tags: ['auth'],
      pinned: true,
      body: 'Tokens live 24 h.\nRefresh early.\n\nDetails below.',
      today: '2026-02-01',
    })
    expect(parseKnowledge('jwt', text)).toMatchObject({
      slug: 'jwt',
      title: 'JWT auth flow',
      summary: 'Tokens live 24 h. Refresh early.',
      tags: ['auth'],
      pinned: true,
      created: '2026-02-01',
    })
  })

  it('read agentcontext notes (name, description, date)', () => {
    const note = parseKnowledge(
      'x',
      '---\nname: X\ndescription: About x\ndate: "2026-01-01"\npinned: false\n---\nbody',
    )
    expect(note).toMatchObject({
      title: 'X',
      summary: 'About x',
      created: '2026-01-01',
      pinned: false,
    })
  })
})

describe('staleness', () => {
  it('is more than 30 days since the last read, or since creation when never read', () => {
    // 2026-01-30 is exactly 30 days before 2026-03-01.
    expect(isStale({ created: '2026-01-01' }, { last_accessed: '2026-01-29', count: 1 }, now)).toBe(
      true,
    )
    expect(isStale({ created: '2026-01-01' }, { last_accessed: '2026-01-30', count: 1 }, now)).toBe(
      false,
    )
    expect(isStale({ created: '2026-01-29' }, undefined, now)).toBe(true)
    expect(isStale({ created: '2026-01-30' }, undefined, now)).toBe(false)
    expect(isStale({ created: null }, undefined, now)).toBe(false)
  })
})

describe('warm tier', () => {
  it('is a read within 7 days or a tag shared with an active task', () => {
    const tags = new Set(['auth'])
    expect(isWarm({ tags: [] }, { last_accessed: '2026-02-22', count: 1 }, tags, now)).toBe(true)
    expect(isWarm({ tags: [] }, { last_accessed: '2026-02-21', count: 1 }, tags, now)).toBe(false)
    expect(isWarm({ tags: ['Auth'] }, undefined, tags, now)).toBe(true)
    expect(isWarm({ tags: ['db'] }, undefined, tags, now)).toBe(false)
  })
})

describe('listKnowledge', () => {
  it('joins notes with their access records, sorted by slug', () => {
    const documents = ['b', 'a'].map((slug) =>
      parseKnowledge(
        slug,
        renderNewKnowledge({
          title: slug,
          summary: null,
          tags: [],
          pinned: false,
          body: 'x',
          today: '2026-01-01',
        }),
      ),
    )
    const rows = listKnowledge(documents, { b: { last_accessed: '2026-02-28', count: 4 } }, now)
    expect(rows.map((row) => [row.slug, row.count, row.last_accessed, row.stale])).toEqual([
      ['a', 0, null, true],
      ['b', 4, '2026-02-28', false],
    ])
  })
})
