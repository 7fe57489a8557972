/**
 * Issue 12's quality proof: LoCoMo dev conversations replayed as creatures' conversations (each
 * session one wake period); observations.md keeps at least 0.60 of the answer tokens at no more
 * than 0.25 of the conversation's tokens (bench/mind-retention.ts); issue 21: the creator's
 * standing orders given early are in every wake message over 12 dreams and in priorities.md.
 */
import { describe, expect, it } from 'vitest'
import { main, ORDERS } from '../bench/mind-retention.ts'
import { HAS_SHARED } from './support/shared-data.ts'

describe.skipIf(!HAS_SHARED)('creature observations on LoCoMo dev conversations', () => {
  it('keep >= 0.60 of the answer tokens in <= 0.25 of the tokens, deterministically', {
    timeout: 120_000,
  }, async () => {
    const rows = await main({ quiet: true })
    const creature = rows.filter((row) => row.method === 'creature (extractive)')
    const mean = creature.find((row) => row.conversation === 'mean')
    expect(creature).toHaveLength(6)
    for (const row of creature) expect(row.tokenShare, row.conversation).toBeLessThanOrEqual(0.25)
    expect(mean?.retention).toBeGreaterThanOrEqual(0.6)
    // Each conversation really went through deep sleeps (every 10th dream), and beats the floor of half.
    expect(
      creature
        .filter((row) => row.conversation !== 'mean')
        .every((row) => row.deepSleeps >= 1 && row.retention >= 0.5),
    ).toBe(true)
    // Standing orders given before the first session: in every wake message after each of the
    // first 12 dreams (a deep sleep among them), and in priorities.md at the end.
    for (const row of creature.filter((item) => item.conversation !== 'mean')) {
      expect(row.ordersCarried, row.conversation).toBe('12/12')
      expect(row.priorities?.orders, row.conversation).toBe(ORDERS.length)
    }
    const locomo = rows.find(
      (row) => row.conversation === 'mean' && row.method === 'LoCoMo observations (LLM)',
    )
    expect(locomo?.retention).toBeGreaterThan(0.7)
    const again = await main({ quiet: true, conversations: ['26'] })
    expect(again[0]).toEqual(creature[0])
  })
})
