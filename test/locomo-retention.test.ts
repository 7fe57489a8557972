/** The target on real conversations: at 20 % of the tokens, keep ≥ 0.60 of the answer tokens. */
import { describe, expect, it } from 'vitest'
import { main } from '../bench/locomo-retention.ts'
import { HAS_SHARED } from './support/shared-data.ts'

describe.skipIf(!HAS_SHARED)('LoCoMo retention of the extractive summarizer', () => {
  it('keeps at least 0.60 of the normalized answer tokens at 20 % budget, beating truncation', async () => {
    const rows = await main({ methods: ['extractive', 'first-turns'], budgets: [0.2], quiet: true })
    const [extractive, firstTurns] = rows
    expect(extractive?.compression).toBeLessThanOrEqual(0.2)
    expect(extractive?.retention).toBeGreaterThanOrEqual(0.6)
    expect(extractive?.retentionWithoutDates).toBeGreaterThanOrEqual(0.6)
    expect(extractive?.retention).toBeGreaterThan((firstTurns?.retention ?? 1) + 0.1)
    const again = await main({ methods: ['extractive'], budgets: [0.2], quiet: true })
    expect(again[0]).toEqual(extractive)
  })
})

describe.skipIf(!HAS_SHARED)(
  'LoCoMo retention on conversations the weights were not chosen on',
  () => {
    it('keeps at least 0.65 of the answer tokens at 20 %, dates not credited, on 42 and 43', async () => {
      const { HELD_OUT_CONVERSATIONS } = await import('../bench/locomo-retention.ts')
      const [heldOut] = await main({
        methods: ['extractive'],
        budgets: [0.2],
        quiet: true,
        conversations: HELD_OUT_CONVERSATIONS,
      })
      expect(heldOut?.compression).toBeLessThanOrEqual(0.2)
      expect(heldOut?.retentionWithoutDates).toBeGreaterThanOrEqual(0.65)
    })
  },
)

describe('normalizedTokens (the LoCoMo scorer normalization)', () => {
  it('lowercases, strips punctuation, drops articles and stop words, and stems', async () => {
    // Porter step 1c turns a final y after a vowel-bearing stem into i: may → mai.
    const { normalizedTokens } = await import('../bench/locomo-data.ts')
    expect(normalizedTokens('The adoption agencies, and 7 May 2023!')).toEqual([
      'adopt',
      'agenc',
      '7',
      'mai',
      '2023',
    ])
    expect(normalizedTokens("Caroline's painting")).toEqual(['carolin', 'paint'])
  })
})
