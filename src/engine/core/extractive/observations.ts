/**
 * Prioritized observations (seed 004's RED / YLW / GRN, docs/design/origins.md): the fact-bearing
 * sentences of a session, each with the priority its cues earn, the source unit and the unit's
 * clock time.
 */
import { outranks, PRIORITIES, type PriorityLevel, priorityOf } from './priority.ts'
import { explodeUnits, type SentenceRecord, type TextUnit } from './sentences.ts'
import { cosine, inverseDocumentFrequency, type SparseVector, tfIdfVector } from './tfidf.ts'
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
/** Share of a vector's squared norm its unprobed stems stay under: 0.63, a margin below 0.8². */
const PREFIX_SHARE = 0.63

/** Observations from `units`, RED first, then YLW, then GRN, each in input order. */
export function extractObservations(units: readonly TextUnit[]): ExtractedObservation[] {
  const records = explodeUnits(units).filter((record) => record.stems.length > 0)
  const idf = inverseDocumentFrequency(records.map((record) => record.stems))
  const fixedUnits = new Set(
    records
      .filter((record) => record.features.cues.includes('fix'))
      .map((record) => record.unitIndex),
  )
  const kept: {
    record: SentenceRecord
    priority: PriorityLevel
    sources: string[]
    vector: SparseVector
  }[] = []
  /** Stem → positions in `kept` of the observations whose vector has it, ascending. */
  const keptWith = new Map<string, number[]>()
  for (const record of records) {
    const resolved = [0, 1, 2].some((step) => fixedUnits.has(record.unitIndex + step))
    const priority = priorityOf(record.features, resolved)
    if (!priority) continue
    const vector = tfIdfVector(record.stems, idf)
    const twin = firstTwin(vector, kept, keptWith)
    if (twin) {
      if (!twin.sources.includes(record.unitId)) twin.sources.push(record.unitId)
      if (outranks(priority, twin.priority)) twin.priority = priority
      continue
    }
    for (const stem of vector.keys()) {
      const positions = keptWith.get(stem)
      if (positions) positions.push(kept.length)
      else keptWith.set(stem, [kept.length])
    }
    kept.push({ record, priority, sources: [record.unitId], vector })
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

/**
 * The first kept observation (in input order) at least DUPLICATE_SIMILARITY similar to `vector`.
 * Only observations sharing one of `vector`'s heaviest stems can be that similar: if the stems
 * they share weigh under √0.63 of `vector`'s norm, Cauchy-Schwarz caps the cosine below 0.8. So
 * the common, light stems that would make every observation a candidate are never looked up.
 */
function firstTwin<Kept extends { vector: SparseVector }>(
  vector: SparseVector,
  kept: readonly Kept[],
  keptWith: ReadonlyMap<string, readonly number[]>,
): Kept | undefined {
  const heaviest = [...vector].sort((left, right) => right[1] - left[1])
  let rest = 0
  for (const [, weight] of heaviest) rest += weight * weight
  const limit = PREFIX_SHARE * rest
  const positions = new Set<number>()
  for (const [stem, weight] of heaviest) {
    if (rest < limit) break
    rest -= weight * weight
    for (const position of keptWith.get(stem) ?? []) positions.add(position)
  }
  for (const position of [...positions].sort((left, right) => left - right)) {
    const other = kept[position] as Kept
    if (cosine(other.vector, vector) >= DUPLICATE_SIMILARITY) return other
  }
  return undefined
}
