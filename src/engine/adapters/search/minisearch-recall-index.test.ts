import { describe, expect, it } from 'vitest'
import { RECALL_FACTS, testRecall } from '../../ports/recall.contract.ts'
import {
  createMiniSearchRecallIndex,
  loadMiniSearchRecallIndex,
} from './minisearch-recall-index.ts'

testRecall({ name: 'MiniSearch', make: async () => createMiniSearchRecallIndex() })

// The contract once more on an index that went through its JSON text and back.
testRecall({
  name: 'MiniSearch, serialized and loaded',
  make: async () => {
    const loaded = loadMiniSearchRecallIndex(createMiniSearchRecallIndex().serialize())
    if (loaded === null) throw new Error('an empty index did not load')
    return loaded
  },
})

describe('MiniSearch recall index on disk', () => {
  it('answers the same after a round trip through its JSON text', async () => {
    const index = createMiniSearchRecallIndex()
    await index.put(RECALL_FACTS)
    await index.remove(['pnpm'])
    const loaded = loadMiniSearchRecallIndex(index.serialize())
    const query = { text: 'staging test build failed', limit: 10 }
    expect(await loaded?.search(query)).toEqual(await index.search(query))
    expect(loaded?.size).toBe(RECALL_FACTS.length - 1)
  })

  it('refuses damaged or foreign text instead of half-loading it', () => {
    for (const text of ['', '{', 'null', '{"format":0}', '{"format":1,"entries":[],"index":{}}']) {
      expect(loadMiniSearchRecallIndex(text), text).toBeNull()
    }
  })
})
