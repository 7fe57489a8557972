/**
 * Observations found through the stem index must be the ones the scan over every kept observation
 * found (the code before, kept here as the oracle): same twins merged, same sources, same order.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transcriptText } from '../../../../bench/extractive-cost.ts'
import { HAS_SHARED } from '../../../../test/support/shared-data.ts'
import { textToUnits } from '../../../brain/app/summarize-text.ts'
import { extractObservations } from './observations.ts'
import { outranks, PRIORITIES, type PriorityLevel, priorityOf } from './priority.ts'
import { explodeUnits, type SentenceRecord, type TextUnit } from './sentences.ts'
import { cosine, inverseDocumentFrequency, tfIdfVector } from './tfidf.ts'

/** The previous duplicate search: every kept observation's vector rebuilt and compared. */
function observationsByScan(units: readonly TextUnit[]) {
  const records = explodeUnits(units).filter((record) => record.stems.length > 0)
  const idf = inverseDocumentFrequency(records.map((record) => record.stems))
  const fixedUnits = new Set(
    records
      .filter((record) => record.features.cues.includes('fix'))
      .map((record) => record.unitIndex),
  )
  const kept: { record: SentenceRecord; priority: PriorityLevel; sources: string[] }[] = []
  for (const record of records) {
    const resolved = [0, 1, 2].some((step) => fixedUnits.has(record.unitIndex + step))
    const priority = priorityOf(record.features, resolved)
    if (!priority) continue
    const vector = tfIdfVector(record.stems, idf)
    const twin = kept.find((other) => cosine(tfIdfVector(other.record.stems, idf), vector) >= 0.8)
    if (twin) {
      if (!twin.sources.includes(record.unitId)) twin.sources.push(record.unitId)
      if (outranks(priority, twin.priority)) twin.priority = priority
      continue
    }
    kept.push({ record, priority, sources: [record.unitId] })
  }
  return PRIORITIES.flatMap((level) =>
    kept
      .filter((item) => item.priority === level)
      .map(({ record, priority, sources }) => ({
        priority,
        text: record.speaker ? `${record.speaker}: ${record.text}` : record.text,
        sources,
      })),
  )
}

function observationsByIndex(units: readonly TextUnit[]) {
  return extractObservations(units).map(({ priority, text, sources }) => ({
    priority,
    text,
    sources,
  }))
}

// Near-duplicates at every similarity: a few heavy words shared or not, many light ones repeated.
const WORDS = ['we', 'decided', 'fixed', 'parser', 'Redis', 'cache', 'tests', 'failed', 'passing']
const LIGHT = ['the', 'code', 'code', 'code', 'file', 'file', 'run', 'run', '42', 'Friday']
const sentence = fc
  .array(fc.constantFrom(...WORDS, ...LIGHT), { minLength: 1, maxLength: 12 })
  .map((words) => `${words.join(' ')}.`)

describe('extractObservations (stem index)', () => {
  it('merges the same twins as the scan over every kept observation, on random sessions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(sentence, { minLength: 1, maxLength: 3 }), { maxLength: 40 }),
        (texts) => {
          const units = texts.map((parts, index) => ({ id: `U${index}`, text: parts.join(' ') }))
          expect(observationsByIndex(units)).toEqual(observationsByScan(units))
        },
      ),
      { numRuns: 300 },
    )
  })

  it.skipIf(!HAS_SHARED)('finds what the scan found on 150 KB of real transcripts', () => {
    const units = textToUnits(transcriptText(150_000)).map(({ line: _line, ...rest }) => rest)
    const byIndex = observationsByIndex(units)
    expect(byIndex.filter((item) => item.sources.length > 1).length).toBeGreaterThan(10)
    expect(byIndex).toEqual(observationsByScan(units))
  })
})
