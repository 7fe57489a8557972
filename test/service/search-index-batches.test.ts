/**
 * Search indexing keeps each statement short (issue 22): embedded PGlite answers nothing else
 * while one runs, so a batch of big handoffs is indexed a few at a time. On both engines.
 */
import { expect, it } from 'vitest'
import { indexPendingHandoffs } from '../../src/service/app/index-handoffs.ts'
import { sampleHandoff } from '../../src/service/ports/service-stores.contract.ts'
import { describeEachEngine } from '../support/describe-each-engine.ts'

/** About 600 kB of words. */
function bigText(seed: number): string {
  return Array.from({ length: 90_000 }, (_, at) => `w${seed}y${at % 977}`).join(' ')
}

describeEachEngine('search index batches', (test, engine) => {
  it('indexes big handoffs one statement each, small ones many at a time, and all of them', async () => {
    const { handoffs } = test.stores
    while ((await handoffs.indexPending(500)) > 0) {}
    await handoffs.insert(
      [0, 1, 2].map((seed) =>
        sampleHandoff('default', `big-${engine}-${seed}`, { experienced: bigText(seed) }),
      ),
    )
    expect(await handoffs.indexPending(500)).toBe(1)
    await handoffs.insert(
      Array.from({ length: 40 }, (_, seed) => sampleHandoff('default', `small-${engine}-${seed}`)),
    )
    // What is left: two big ones and forty small ones, all indexed by passes that stop only
    // when nothing is pending.
    expect(await indexPendingHandoffs({ stores: test.stores })).toBe(42)
    expect(await handoffs.indexPending(500)).toBe(0)
    const found = await handoffs.search('default', { text: 'w2y5', limit: 5 })
    expect(found.map((handoff) => handoff.handoff_id)).toEqual([`big-${engine}-2`])
  })
})
