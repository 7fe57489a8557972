/**
 * Budgeted extractive summaries: choose RED sentences first, then the sentences that add the most
 * new information per token (TF-IDF coverage plus fact cues, minus an MMR-style redundancy
 * penalty; features.ts), and render them in their original order, speaker-prefixed, under a date
 * header. Never exceeds the budget as counted by `countTokens` of the returned text.
 */
import { countTokens } from '../tokens.ts'
import { featureBonus, WEIGHTS } from './features.ts'
import { MaxHeap } from './max-heap.ts'
import { priorityOf } from './priority.ts'
import { explodeUnits, type SentenceRecord, type TextUnit } from './sentences.ts'
import { cosine, inverseDocumentFrequency, type SparseVector, tfIdfVector } from './tfidf.ts'
import { parseTimestamp } from './timestamps.ts'

/** A summary and the ids of the units it kept sentences from, in input order. */
export interface ExtractiveSummary {
  text: string
  sources: string[]
}

/** Renders every unit in full: what "lossless" means, and the token count budgets are shares of. */
export function renderUnits(units: readonly TextUnit[]): string {
  return render(
    units.map((unit, unitIndex) => ({ unitIndex, texts: [unit.text] })),
    units,
  )
}

/** Summarizes `units` in at most `budgetTokens` tokens; everything when it all fits. */
export function summarizeUnits(
  units: readonly TextUnit[],
  budgetTokens: number,
): ExtractiveSummary {
  const kept = units.filter((unit) => unit.text.trim().length > 0)
  if (kept.length === 0 || budgetTokens <= 0) return { text: '', sources: [] }
  const full = renderUnits(kept)
  if (countTokens(full) <= budgetTokens)
    return { text: full, sources: unique(kept.map((unit) => unit.id)) }
  const records = explodeUnits(kept)
  let chosen = selectSentences(records, kept, budgetTokens)
  let text = renderSelection(chosen, kept)
  // Token counts of pieces don't always add up exactly under BPE: drop the last choices until it fits.
  while (countTokens(text) > budgetTokens && chosen.length > 0) {
    chosen = chosen.slice(0, -1)
    text = renderSelection(chosen, kept)
  }
  const sources = unique(
    [...chosen].sort((left, right) => left.index - right.index).map((record) => record.unitId),
  )
  return { text, sources }
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
  /** Tokens every opened unit costs besides its speaker prefix (a line marker, a time). */
  unitOverhead = 0,
): SentenceRecord[] {
  const idf = inverseDocumentFrequency(records.map((record) => record.stems))
  let maxIdf = 1e-9
  for (const value of idf.values()) maxIdf = Math.max(maxIdf, value)
  const weight = (stem: string) => (idf.get(stem) ?? 0) / maxIdf
  const candidates: Candidate[] = records.map((record) => {
    const uniqueStems = [...new Set(record.stems)]
    return {
      record,
      cost: countTokens(` ${record.text}`),
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
  const prefixCost = units.map(
    (unit) => (unit.speaker ? countTokens(`${unit.speaker}:`) : 0) + 1 + unitOverhead,
  )
  const dates = units.map((unit) => parseTimestamp(unit.timestamp).date)
  const headerCost = dates.map((date) => (date ? countTokens(`[${date}]`) + 1 : 0))
  const byUnit = groupBy(candidates, (candidate) => [String(candidate.record.unitIndex)])
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
      for (const other of byUnit.get(String(unitIndex)) ?? []) push(other)
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

function renderSelection(chosen: readonly SentenceRecord[], units: readonly TextUnit[]): string {
  const byUnit = new Map<number, SentenceRecord[]>()
  for (const record of [...chosen].sort((left, right) => left.index - right.index)) {
    const records = byUnit.get(record.unitIndex)
    if (records) records.push(record)
    else byUnit.set(record.unitIndex, [record])
  }
  const lines = [...byUnit].map(([unitIndex, records]) => ({
    unitIndex,
    texts: records.map((record) => record.text),
  }))
  return render(lines, units)
}

function render(
  lines: readonly { unitIndex: number; texts: string[] }[],
  units: readonly TextUnit[],
): string {
  const out: string[] = []
  let currentDate: string | undefined
  for (const { unitIndex, texts } of lines) {
    const unit = units[unitIndex]
    if (!unit) continue
    const date = parseTimestamp(unit.timestamp).date
    if (date && date !== currentDate) out.push(`[${date}]`)
    if (date) currentDate = date
    const body = texts.join(' ')
    out.push(unit.speaker ? `${unit.speaker}: ${body}` : body)
  }
  return out.join('\n')
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)]
}
