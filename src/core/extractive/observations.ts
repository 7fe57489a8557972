/**
 * Prioritized observations (seed 004's RED / YLW / GRN): the fact-bearing sentences of a session,
 * each with the priority its cues earn, the source unit and the unit's clock time.
 */
import { outranks, PRIORITIES, type PriorityLevel, priorityOf } from './priority.ts'
import { explodeUnits, type SentenceRecord, type TextUnit } from './sentences.ts'
import { cosine, inverseDocumentFrequency, tfIdfVector } from './tfidf.ts'
import { parseTimestamp } from './timestamps.ts'

/** An observation as the extractive model makes it (same shape as the port's). */
export interface ExtractedObservation {
  priority: PriorityLevel
  text: string
  sources: string[]
  time?: string
}

/** Sentences this similar (TF-IDF cosine) are one observation with both sources. */
const DUPLICATE_SIMILARITY = 0.8

/** Observations from `units`, RED first, then YLW, then GRN, each in input order. */
export function extractObservations(units: readonly TextUnit[]): ExtractedObservation[] {
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
    const twin = kept.find(
      (other) => cosine(tfIdfVector(other.record.stems, idf), vector) >= DUPLICATE_SIMILARITY,
    )
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
      .map(({ record, priority, sources }) => {
        const time = parseTimestamp(units[record.unitIndex]?.timestamp).time
        const text = record.speaker ? `${record.speaker}: ${record.text}` : record.text
        return time ? { priority, text, sources, time } : { priority, text, sources }
      }),
  )
}
