/**
 * The summarizer's choice of sentences: lazy greedy by value per token within a budget, and what
 * opening a unit costs (its speaker prefix and date header).
 */
import { countTokens } from '../tokens.ts'
import { featureBonus, WEIGHTS } from './features.ts'
import { MaxHeap } from './max-heap.ts'
import { priorityOf } from './priority.ts'
import type { SentenceRecord, TextUnit } from './sentences.ts'
import { cosine, inverseDocumentFrequency, type SparseVector, tfIdfVector } from './tfidf.ts'
import { parseTimestamp } from './timestamps.ts'

/** What opening a unit costs besides its sentences: its speaker prefix and its date header. */
export interface UnitOverheads {
  dates: (string | undefined)[]
  prefixCost: number[]
  headerCost: number[]
}

/** The overheads of `units`, each distinct speaker and date counted once. */
export function unitOverheads(units: readonly TextUnit[]): UnitOverheads {
  // Units share a few speakers and dates: count each distinct string once.
  const counted = new Map<string, number>()
  const count = (text: string) => {
    let tokens = counted.get(text)
    if (tokens === undefined) {
      tokens = countTokens(text)
      counted.set(text, tokens)
    }
    return tokens
  }
  const dates = units.map((unit) => parseTimestamp(unit.timestamp).date)
  return {
    dates,
    prefixCost: units.map((unit) => (unit.speaker ? count(`${unit.speaker}:`) : 0) + 1),
    headerCost: dates.map((date) => (date ? count(`[${date}]`) + 1 : 0)),
  }
}

interface Candidate {
  record: SentenceRecord
  cost: number
  bonus: number
  /** Built the first time redundancy is measured: most candidates never reach the top. */
  vector?: SparseVector
  uniqueStems: string[]
  /** Weight of its stems not yet covered by a chosen sentence. */
  freshWeight: number
  /** Highest cosine similarity to a chosen sentence, among the first `compared` chosen. */
  closest: number
  /** How many chosen sentences `closest` accounts for (it catches up only when it is looked at). */
  compared: number
  taken: boolean
  /** Seed 004's critical facts (commitments, bans, credentials, wins, decisions, blocking errors) go first. */
  red: boolean
  /** Bumped at every push: only the newest queue entry of a candidate counts. */
  version: number
}

/** A queued candidate with the key it had when pushed: never below its current key. */
interface Entry {
  candidate: Candidate
  key: [number, number]
  version: number
}

/**
 * Greedy choice in order of value per token within `budget` tokens (sentence costs plus a speaker
 * prefix per opened unit and a header per opened date); returns the chosen records in order of choice.
 * Lazy greedy (CELF): a candidate's key only falls as sentences are chosen (its fresh weight
 * shrinks, its redundancy grows), except when its cost falls because its unit or date gets opened,
 * and then it is queued again. So the queue's top, once its key is brought up to date and still
 * tops the queue, is exactly the candidate a full rescan would pick (ties to the earliest sentence,
 * as before), and redundancy is computed only for the candidates that reach the top, against the
 * chosen sentences that share a stem with them.
 */
export function selectSentences(
  records: SentenceRecord[],
  units: readonly TextUnit[],
  budget: number,
  counted: { costs: readonly number[]; overheads: UnitOverheads } = {
    costs: records.map((record) => countTokens(` ${record.text}`)),
    overheads: unitOverheads(units),
  },
): SentenceRecord[] {
  const stemSets = records.map((record) => [...new Set(record.stems)])
  const idf = inverseDocumentFrequency(stemSets)
  let maxIdf = 1e-9
  for (const value of idf.values()) maxIdf = Math.max(maxIdf, value)
  const weights = new Map<string, number>()
  for (const [stem, value] of idf) weights.set(stem, (value / maxIdf) ** WEIGHTS.idfExponent)
  const weight = (stem: string) => weights.get(stem) ?? 0
  const candidates: Candidate[] = records.map((record, at) => {
    const uniqueStems = stemSets[at] as string[]
    return {
      record,
      cost: counted.costs[at] ?? 0,
      bonus: featureBonus(record.features),
      uniqueStems,
      freshWeight: uniqueStems.reduce((sum, stem) => sum + weight(stem), 0),
      closest: 0,
      compared: 0,
      taken: false,
      red: priorityOf(record.features) === 'RED',
      version: 0,
    }
  })
  const byStem = groupBy(candidates, (candidate) => candidate.uniqueStems)
  const { prefixCost, dates, headerCost } = counted.overheads
  const byUnit: Candidate[][] = units.map(() => [])
  for (const candidate of candidates) byUnit[candidate.record.unitIndex]?.push(candidate)
  const byDate = groupBy(candidates, (candidate) => {
    const date = dates[candidate.record.unitIndex]
    return date ? [date] : []
  })
  const openUnits = new Set<number>()
  const openDates = new Set<string>()
  const chosen: Candidate[] = []
  /** Stem → positions in `chosen` of the chosen sentences that contain it, ascending. */
  const chosenWith = new Map<string, number[]>()
  let spent = 0

  const costOf = (candidate: Candidate) => {
    const { unitIndex } = candidate.record
    const date = dates[unitIndex]
    let cost = candidate.cost
    if (!openUnits.has(unitIndex)) cost += prefixCost[unitIndex] ?? 1
    if (date && !openDates.has(date)) cost += headerCost[unitIndex] ?? 0
    return cost
  }
  const keyOf = (candidate: Candidate, cost: number): [number, number] => {
    const gain = candidate.freshWeight + candidate.bonus - WEIGHTS.redundancy * candidate.closest
    // RED sentences first, then positive gains on value per token, then fill by plain gain.
    const tier = candidate.red ? 2 : 1
    return gain > 0 ? [tier, gain / cost ** WEIGHTS.costExponent] : [0, gain]
  }
  const queue = new MaxHeap<Entry>((left, right) => {
    if (left.key[0] !== right.key[0]) return left.key[0] > right.key[0]
    if (left.key[1] !== right.key[1]) return left.key[1] > right.key[1]
    return left.candidate.record.index < right.candidate.record.index
  })
  const push = (candidate: Candidate) => {
    // Chatter is never worth a token, even when the budget has room to spare.
    if (candidate.taken || candidate.record.features.chatter) return
    candidate.version += 1
    queue.push({ candidate, key: keyOf(candidate, costOf(candidate)), version: candidate.version })
  }
  const vectorOf = (candidate: Candidate) => {
    candidate.vector ??= tfIdfVector(candidate.record.stems, idf)
    return candidate.vector
  }
  const catchUp = (candidate: Candidate) => {
    const shared = new Set<number>()
    for (const stem of candidate.uniqueStems) {
      const positions = chosenWith.get(stem) ?? []
      for (let at = positions.length - 1; at >= 0; at -= 1) {
        const position = positions[at] as number
        if (position < candidate.compared) break
        shared.add(position)
      }
    }
    for (const position of shared) {
      const other = chosen[position] as Candidate
      candidate.closest = Math.max(candidate.closest, cosine(vectorOf(candidate), vectorOf(other)))
    }
    candidate.compared = chosen.length
  }

  for (const candidate of candidates) push(candidate)
  for (let entry = queue.pop(); entry; entry = queue.pop()) {
    const { candidate } = entry
    if (candidate.taken || entry.version !== candidate.version) continue
    const cost = costOf(candidate)
    // Spending only grows, so it stays out until its cost falls (its unit or date opens).
    if (spent + cost > budget) continue
    catchUp(candidate)
    const key = keyOf(candidate, cost)
    if (key[0] !== entry.key[0] || key[1] !== entry.key[1]) {
      candidate.version += 1
      queue.push({ candidate, key, version: candidate.version })
      continue
    }
    candidate.taken = true
    spent += cost
    for (const stem of candidate.uniqueStems) {
      for (const other of byStem.get(stem) ?? []) other.freshWeight -= weight(stem)
      byStem.delete(stem)
      const positions = chosenWith.get(stem)
      if (positions) positions.push(chosen.length)
      else chosenWith.set(stem, [chosen.length])
    }
    chosen.push(candidate)
    const { unitIndex } = candidate.record
    if (!openUnits.has(unitIndex)) {
      openUnits.add(unitIndex)
      for (const other of byUnit[unitIndex] ?? []) push(other)
    }
    const date = dates[unitIndex]
    if (date && !openDates.has(date)) {
      openDates.add(date)
      for (const other of byDate.get(date) ?? []) push(other)
    }
  }
  return chosen.map((candidate) => candidate.record)
}

/** Candidates by each key `keysOf` gives them, in input order. */
function groupBy(
  candidates: readonly Candidate[],
  keysOf: (candidate: Candidate) => readonly string[],
): Map<string, Candidate[]> {
  const groups = new Map<string, Candidate[]>()
  for (const candidate of candidates) {
    for (const key of keysOf(candidate)) {
      const group = groups.get(key)
      if (group) group.push(candidate)
      else groups.set(key, [candidate])
    }
  }
  return groups
}
