/**
 * A list page is sized by the columns it returns (issue 22): `search_vector`, which a list never
 * carries, must not cut a page short. On both engines, with a small page so rows stay small.
 */
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { sqlHandoffStore } from '../../src/service/adapters/sql/sql-handoff-store.ts'
import { sampleHandoff } from '../../src/service/ports/service-stores.contract.ts'
import { describeEachEngine } from '../support/describe-each-engine.ts'

/** About 8 kB of distinct words: their search vector (lexeme and position each) outweighs them. */
function distinctWords(seed: number): string {
  const words: string[] = []
  for (let at = 0; at < 1100; at += 1) words.push(`w${seed}x${at.toString(36)}`)
  return words.join(' ')
}

const PAGE = 30_000

describeEachEngine('list page size', (test, engine) => {
  it('fits as many rows as their returned columns allow, indexed or not', async () => {
    const handoffs = [0, 1, 2, 3, 4].map((seed) =>
      sampleHandoff('default', `page-size-${engine}-${seed}`, {
        experienced: distinctWords(seed),
        noticed: '',
        learned: '',
      }),
    )
    await test.stores.handoffs.insert(handoffs)
    while ((await test.stores.handoffs.indexPending(50)) > 0) {}
    const store = sqlHandoffStore(test.database.db, { pageBytes: PAGE })
    const returned = JSON.stringify(handoffs[0]).length
    // The premise: the search vector alone is larger than what a list returns of a row.
    const { rows } = await sql<{ bytes: number }>`
      SELECT octet_length(search_vector::text) AS bytes FROM session_handoffs
      WHERE handoff_id = ${handoffs[0]?.handoff_id}`.execute(test.database.db)
    expect(Number(rows[0]?.bytes)).toBeGreaterThan(returned)

    const fits = Math.floor(PAGE / returned)
    expect(fits).toBeGreaterThanOrEqual(2)
    const seen: string[] = []
    let cursor: string | undefined
    for (let page = 0; page < 5; page += 1) {
      const listed = await store.list('default', { limit: 10, cursor })
      if (page === 0) {
        // Several rows, not the one a page sized with the search vector holds; and no more
        // than the page's bytes (the row text is a little shorter than the JSON).
        expect(listed.items.length).toBeGreaterThanOrEqual(fits)
        expect(listed.items.length).toBeLessThanOrEqual(fits + 1)
      }
      seen.push(...listed.items.map((item) => item.handoff_id))
      if (!listed.next_cursor) break
      cursor = listed.next_cursor
    }
    expect(seen.sort()).toEqual(handoffs.map((handoff) => handoff.handoff_id).sort())
  })
})
