/**
 * Preparing a text once for several budgets must not change a summary: each level equals
 * `summarizeUnits` of what the level before it kept, as the service made it before.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { loadConversation } from '../../../../bench/locomo-data.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../../../../test/support/shared-data.ts'
import { countTokens } from '../tokens.ts'
import type { TextUnit } from './sentences.ts'
import { summarizeLevels, summarizeUnits } from './summarize.ts'

/**
 * The levels one `summarizeUnits` call per budget gives, each from the units the one before kept,
 * every one after the first terse.
 */
function levelsOneByOne(units: readonly TextUnit[], budgets: readonly number[]) {
  let from = units
  return budgets.map((budget, level) => {
    const summary = summarizeUnits(from, budget, level > 0)
    const kept = new Set(summary.sources)
    const narrowed = from.filter((unit) => kept.has(unit.id))
    if (narrowed.length > 0) from = narrowed
    return { ...summary, tokens: countTokens(summary.text) }
  })
}

describe('summarizeLevels', () => {
  it('equals one summarizeUnits per level on any input, tokens measured', () => {
    const text = fc.oneof(
      fc.lorem({ maxCount: 8, mode: 'sentences' }),
      fc.string({ maxLength: 80 }),
      fc.constantFrom(
        'Hey! Thanks!',
        'We decided to use Postgres on 3 May.',
        'I was really scared. Dr. Lee said it was fine.',
        '',
        'A (b) c? D!\nE.',
      ),
    )
    const unit = fc.record(
      {
        text,
        // A speaker only some units have: narrowing can drop a name the features look for.
        speaker: fc.constantFrom('Ann', 'Bob Lee', 'Lee', 'user', undefined),
        timestamp: fc.constantFrom('2026-02-12T09:32:00Z', '1:56 pm on 8 May, 2023', 'whenever'),
      },
      { requiredKeys: ['text'] },
    )
    const input = fc
      .array(unit, { maxLength: 14 })
      .map((units) => units.map((entry, index) => ({ id: `u${index % 11}`, ...entry })))
    const budgets = fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(input, budgets, (units, levels) => {
        expect(summarizeLevels(units, levels)).toEqual(levelsOneByOne(units, levels))
      }),
      { numRuns: 300 },
    )
  })

  it.skipIf(!HAS_SHARED)(
    'equals one summarizeUnits per level on every LoCoMo session at the service budgets',
    () => {
      const files = readdirSync(LOCOMO_DIR).filter((name) => name.endsWith('.json'))
      const sessions = files.flatMap((file) => loadConversation(join(LOCOMO_DIR, file)).sessions)
      expect(sessions.length).toBeGreaterThan(100)
      for (const session of sessions) {
        for (const budgets of [
          [500, 100],
          [Math.floor(session.tokens * 0.2), 40],
        ]) {
          expect(summarizeLevels(session.units, budgets)).toEqual(
            levelsOneByOne(session.units, budgets),
          )
        }
      }
    },
  )
})
