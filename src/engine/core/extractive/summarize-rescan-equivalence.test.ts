/**
 * The lazy greedy selection must choose exactly what the full rescan it replaced chose, in the same
 * order: the rescan (the code before, kept here as the oracle) is the definition of the summary.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transcriptText } from '../../../../bench/extractive-cost.ts'
import { HAS_SHARED } from '../../../../test/support/shared-data.ts'
import { textToUnits } from '../../../brain/app/summarize-text.ts'
import { countTokens } from '../tokens.ts'
import { featureBonus, WEIGHTS } from './features.ts'
import { priorityOf } from './priority.ts'
import { selectSentences } from './select-sentences.ts'
import { explodeUnits, type SentenceRecord, type TextUnit } from './sentences.ts'
import { renderUnits } from './summarize.ts'
import { cosine, inverseDocumentFrequency, type SparseVector, tfIdfVector } from './tfidf.ts'
import { parseTimestamp } from './timestamps.ts'

interface RescanCandidate {
  record: SentenceRecord
  cost: number
  bonus: number
  vector: SparseVector
  uniqueStems: string[]
  freshWeight: number
  closest: number
  taken: boolean
  red: boolean
}

/** The previous selectSentences: every candidate rescanned, every redundancy updated, per pick. */
function selectByRescan(
  records: SentenceRecord[],
  units: readonly TextUnit[],
  budget: number,
): SentenceRecord[] {
  const idf = inverseDocumentFrequency(records.map((record) => record.stems))
  const maxIdf = Math.max(1e-9, ...idf.values())
  const weight = (stem: string) => ((idf.get(stem) ?? 0) / maxIdf) ** WEIGHTS.idfExponent
  const candidates: RescanCandidate[] = records.map((record) => {
    const uniqueStems = [...new Set(record.stems)]
    return {
      record,
      cost: countTokens(` ${record.text}`),
      bonus: featureBonus(record.features),
      vector: tfIdfVector(record.stems, idf),
      uniqueStems,
      freshWeight: uniqueStems.reduce((sum, stem) => sum + weight(stem), 0),
      closest: 0,
      taken: false,
      red: priorityOf(record.features) === 'RED',
    }
  })
  const byStem = new Map<string, RescanCandidate[]>()
  for (const candidate of candidates) {
    for (const stem of candidate.uniqueStems)
      byStem.set(stem, [...(byStem.get(stem) ?? []), candidate])
  }
  const prefixCost = units.map((unit) => (unit.speaker ? countTokens(`${unit.speaker}:`) : 0) + 1)
  const dates = units.map((unit) => parseTimestamp(unit.timestamp).date)
  const headerCost = dates.map((date) => (date ? countTokens(`[${date}]`) + 1 : 0))
  const openUnits = new Set<number>()
  const openDates = new Set<string>()
  const chosen: SentenceRecord[] = []
  let spent = 0
  for (;;) {
    let best: { candidate: RescanCandidate; cost: number; key: [number, number] } | undefined
    for (const candidate of candidates) {
      if (candidate.taken || candidate.record.features.chatter) continue
      const { unitIndex } = candidate.record
      const date = dates[unitIndex]
      let cost = candidate.cost
      if (!openUnits.has(unitIndex)) cost += prefixCost[unitIndex] ?? 1
      if (date && !openDates.has(date)) cost += headerCost[unitIndex] ?? 0
      if (spent + cost > budget) continue
      const gain = candidate.freshWeight + candidate.bonus - WEIGHTS.redundancy * candidate.closest
      const tier = candidate.red ? 2 : 1
      const key: [number, number] =
        gain > 0 ? [tier, gain / cost ** WEIGHTS.costExponent] : [0, gain]
      if (!best || key[0] > best.key[0] || (key[0] === best.key[0] && key[1] > best.key[1])) {
        best = { candidate, cost, key }
      }
    }
    if (!best) break
    const { candidate } = best
    candidate.taken = true
    spent += best.cost
    chosen.push(candidate.record)
    openUnits.add(candidate.record.unitIndex)
    const date = dates[candidate.record.unitIndex]
    if (date) openDates.add(date)
    for (const stem of candidate.uniqueStems) {
      for (const other of byStem.get(stem) ?? []) other.freshWeight -= weight(stem)
      byStem.delete(stem)
    }
    for (const other of candidates) {
      if (!other.taken)
        other.closest = Math.max(other.closest, cosine(other.vector, candidate.vector))
    }
  }
  return chosen
}

function choices(units: readonly TextUnit[], share: number): { lazy: number[]; rescan: number[] } {
  const records = explodeUnits(units)
  const budget = Math.floor(countTokens(renderUnits(units)) * share)
  return {
    lazy: selectSentences(records, units, budget).map((record) => record.index),
    rescan: selectByRescan(records, units, budget).map((record) => record.index),
  }
}

// A small vocabulary makes shared stems, exact duplicates and ties common; cue words, names and
// numbers give RED and bonus tiers; few speakers and dates make unit and date openings matter.
const WORDS = ['we', 'decided', 'fixed', 'the', 'parser', 'Redis', 'cache', 'tests', 'failed']
const MORE = [
  'passing',
  '42',
  'deadline',
  'Friday',
  'thanks',
  'haha',
  'will',
  'use',
  'ok',
  'Biscuit',
]
const sentence = fc
  .array(fc.constantFrom(...WORDS, ...MORE), { minLength: 1, maxLength: 9 })
  .map((words) => `${words.join(' ')}.`)
const unit = fc.record({
  text: fc.array(sentence, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')),
  speaker: fc.constantFrom(undefined, 'Ann', 'Bob Stone'),
  timestamp: fc.constantFrom(undefined, '1:56 pm on 8 May, 2023', '9:00 am on 9 May, 2023'),
})

describe('selectSentences (lazy greedy)', () => {
  it('chooses the same sentences in the same order as the full rescan, on random dialogues', () => {
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        (drafts, share) => {
          const units = drafts.map((draft, index) => ({ id: `U${index}`, ...draft }))
          const { lazy, rescan } = choices(units, share)
          expect(lazy).toEqual(rescan)
        },
      ),
      { numRuns: 300 },
    )
  })

  it.skipIf(!HAS_SHARED)('chooses what the rescan chose on 150 KB of real transcripts', () => {
    const units = textToUnits(transcriptText(150_000)).map(({ line: _line, ...rest }) => rest)
    for (const share of [0.05, 0.2, 0.5]) {
      const { lazy, rescan } = choices(units, share)
      expect(lazy.length).toBeGreaterThan(50)
      expect(lazy).toEqual(rescan)
    }
  })
})
