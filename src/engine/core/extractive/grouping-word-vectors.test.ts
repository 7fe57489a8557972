/**
 * Grouping by meaning with the shipped word vectors (issue 22 item 6): paraphrases that share
 * few words come together, unrelated statements stay apart. The vectors are the real file.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  labelledTheme,
  UNRELATED_STATEMENTS as UNRELATED,
} from '../../../../test/support/becoming-paraphrases.ts'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import { groupSimilar } from './grouping.ts'

const WORD_VECTORS = {
  name: 'glove-100d.swv',
  bytes: new Uint8Array(readFileSync(join(REPO_ROOT, 'data/word-vectors/glove-100d.swv'))),
}

/** The service's default `identity_similarity_threshold`. */
const SERVICE_THRESHOLD = 0.2

/** The case: the twelve ways of saying "tests before shipping" in the labelled set. */
const TESTS_BEFORE_SHIPPING = labelledTheme('tests before shipping')

const UNITS = [
  ...TESTS_BEFORE_SHIPPING.map((text, index) => ({ id: `t${index}`, text })),
  ...UNRELATED.map((text, index) => ({ id: `u${index}`, text })),
]

/** The most paraphrases in one group, and whether any group mixes them with others. */
function summary(groups: { members: string[] }[]) {
  const largest = Math.max(0, ...groups.map((group) => group.members.length))
  const mixed = groups.filter(
    (group) => new Set(group.members.map((member) => member.charAt(0))).size > 1,
  )
  return { largest, mixed: mixed.length }
}

describe('groupSimilar with word vectors', () => {
  it('keeps more of the twelve paraphrases together than stems alone, and no unrelated one', () => {
    expect(TESTS_BEFORE_SHIPPING).toHaveLength(12)
    const stems = summary(groupSimilar(UNITS, SERVICE_THRESHOLD))
    const meaning = summary(groupSimilar(UNITS, SERVICE_THRESHOLD, WORD_VECTORS))
    // Measured: 4 with stems, 6 with the vectors: a principle, since a theme needs 5
    // (identity_theme_min_size; test/service/identity-themes.test.ts runs it in the service).
    expect(meaning.largest).toBeGreaterThanOrEqual(6)
    expect(meaning.largest).toBeGreaterThan(stems.largest)
    expect(meaning.mixed).toBe(0)
  })

  it('does not merge unrelated statements into one group', () => {
    const units = UNRELATED.map((text, index) => ({ id: `u${index}`, text }))
    expect(groupSimilar(units, SERVICE_THRESHOLD, WORD_VECTORS)).toEqual([])
  })

  it('finds the same groups for the input reversed', () => {
    const sets = (found: { members: string[] }[]) =>
      found.map((group) => [...group.members].sort()).sort()
    expect(sets(groupSimilar([...UNITS].reverse(), SERVICE_THRESHOLD, WORD_VECTORS))).toEqual(
      sets(groupSimilar(UNITS, SERVICE_THRESHOLD, WORD_VECTORS)),
    )
  })
})
