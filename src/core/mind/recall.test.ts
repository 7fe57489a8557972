import { describe, expect, it } from 'vitest'
import { rankRecall } from './recall.ts'

const lines = [
  {
    file: 'conversation.jsonl',
    line: 1,
    text: 'user: please fix the flaky login test',
    t: '2026-02-12T09:00:00Z',
  },
  {
    file: 'conversation.jsonl',
    line: 2,
    text: 'tool bash: npm test -> login.spec.ts failed twice',
    t: '2026-02-12T09:01:00Z',
  },
  {
    file: 'conversation.jsonl',
    line: 3,
    text: 'assistant: the weather is nice',
    t: '2026-02-12T09:02:00Z',
  },
  {
    file: 'observations.md',
    line: 5,
    text: 'RED 09:05 Login tests fixed by waiting for the redirect',
  },
]

describe('rankRecall', () => {
  it('ranks lines by the query, matching stems, each hit naming its file and line', () => {
    const hits = rankRecall(lines, 'login tests', 10)
    expect(hits.map((hit) => `${hit.file}:${hit.line}`)).toEqual(
      expect.arrayContaining(['conversation.jsonl:1', 'conversation.jsonl:2', 'observations.md:5']),
    )
    expect(hits).toHaveLength(3)
    expect(
      hits.every((hit, index) => index === 0 || (hits[index - 1]?.score ?? 0) >= hit.score),
    ).toBe(true)
  })

  it('ranks a rarer word above a common one, and finds nothing for stop words', () => {
    expect(rankRecall(lines, 'redirect login', 1)[0]?.line).toBe(5)
    expect(rankRecall(lines, 'the and of', 10)).toEqual([])
  })
})
