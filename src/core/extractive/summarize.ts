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
import { explodeUnits, type SentenceRecord, speakerNameSet, type TextUnit } from './sentences.ts'
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

/** A summary that also says how many tokens its text counts (measured, as every budget is). */
export interface MeasuredSummary extends ExtractiveSummary {
  tokens: number
}

/**
 * Units split into scored sentences once, so one text can be summarized at several budgets (the
 * service's summary and quick ref) without splitting, stemming and counting it again.
 */
export interface PreparedUnits {
  /** The non-empty units, in input order. */
  units: TextUnit[]
  records: SentenceRecord[]
  /** Tokens of ` <sentence>` per record, counted the first time a selection needs them. */
  costs: (number | undefined)[]
}

/** Prepares `units` for `summarizePrepared`. */
export function prepareUnits(units: readonly TextUnit[]): PreparedUnits {
  const kept = units.filter((unit) => unit.text.trim().length > 0)
  const records = explodeUnits(kept)
  return { units: kept, records, costs: new Array(records.length) }
}

/**
 * The prepared units whose id is in `ids`, as `prepareUnits` of just those units would give them:
 * sentences, stems and token counts are reused; the features are read again only when the
 * narrower set of speakers could change them.
 */
export function narrowPrepared(prepared: PreparedUnits, ids: ReadonlySet<string>): PreparedUnits {
  const units: TextUnit[] = []
  const newIndex = new Map<number, number>()
  prepared.units.forEach((unit, unitIndex) => {
    if (!ids.has(unit.id)) return
    newIndex.set(unitIndex, units.length)
    units.push(unit)
  })
  if (speakerNameSet(units).size !== speakerNameSet(prepared.units).size) {
    return prepareUnits(units)
  }
  const records: SentenceRecord[] = []
  const costs: (number | undefined)[] = []
  prepared.records.forEach((record, at) => {
    const unitIndex = newIndex.get(record.unitIndex)
    if (unitIndex === undefined) return
    records.push({ ...record, index: records.length, unitIndex })
    costs.push(prepared.costs[at])
  })
  return { units, records, costs }
}

/** Summarizes `units` in at most `budgetTokens` tokens; everything when it all fits. */
export function summarizeUnits(
  units: readonly TextUnit[],
  budgetTokens: number,
): ExtractiveSummary {
  const { text, sources } = summarizePrepared(prepareUnits(units), budgetTokens)
  return { text, sources }
}

/**
 * Summaries of `units` at each budget in turn, each made from the units the one before kept (all
 * of them when it kept none): the service's progression full → summary → quick ref, with the
 * text prepared once.
 */
export function summarizeLevels(
  units: readonly TextUnit[],
  budgets: readonly number[],
): MeasuredSummary[] {
  let prepared = prepareUnits(units)
  const summaries: MeasuredSummary[] = []
  for (const [at, budget] of budgets.entries()) {
    const summary = summarizePrepared(prepared, budget)
    summaries.push(summary)
    if (at === budgets.length - 1) break
    const kept = new Set(summary.sources)
    const narrowed = narrowPrepared(prepared, kept)
    if (narrowed.units.length > 0) prepared = narrowed
  }
  return summaries
}

/** `summarizeUnits` of prepared units. */
export function summarizePrepared(prepared: PreparedUnits, budgetTokens: number): MeasuredSummary {
  const { units, records } = prepared
  if (units.length === 0 || budgetTokens <= 0) return { text: '', sources: [], tokens: 0 }
  const costs = sentenceCosts(prepared)
  const overheads = unitOverheads(units)
  if (!surelyOverBudget(costs, overheads, budgetTokens)) {
    const full = renderUnits(units)
    const tokens = countTokens(full)
    if (tokens <= budgetTokens)
      return { text: full, sources: unique(units.map((unit) => unit.id)), tokens }
  }
  let chosen = selectSentences(records, units, budgetTokens, { costs, overheads })
  let text = renderSelection(chosen, units)
  let tokens = countTokens(text)
  // Token counts of pieces don't always add up exactly under BPE: drop the last choices until it fits.
  while (tokens > budgetTokens && chosen.length > 0) {
    chosen = chosen.slice(0, -1)
    text = renderSelection(chosen, units)
    tokens = countTokens(text)
  }
  const sources = unique(
    [...chosen].sort((left, right) => left.index - right.index).map((record) => record.unitId),
  )
  return { text, sources, tokens }
}

/** Every record's cost, counting those not counted yet. */
function sentenceCosts(prepared: PreparedUnits): number[] {
  return prepared.records.map((record, at) => {
    const known = prepared.costs[at]
    if (known !== undefined) return known
    const cost = countTokens(` ${record.text}`)
    prepared.costs[at] = cost
    return cost
  })
}

/** What opening a unit costs besides its sentences: its speaker prefix and its date header. */
interface UnitOverheads {
  dates: (string | undefined)[]
  prefixCost: number[]
  headerCost: number[]
}

function unitOverheads(units: readonly TextUnit[]): UnitOverheads {
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

/**
 * True when the full rendering cannot fit, so counting it can be skipped. The pieces' counts
 * bound it from below: the full text holds every sentence (untightened) and every prefix; BPE
 * across a seam between pieces saves at most a couple of tokens, allowed per piece.
 */
function surelyOverBudget(
  costs: readonly number[],
  overheads: UnitOverheads,
  budget: number,
): boolean {
  let pieces = 0
  for (const cost of costs) pieces += cost - SEAM_SLACK
  for (const cost of overheads.prefixCost) pieces += cost - SEAM_SLACK
  return pieces > budget
}

/** Tokens BPE may save where two separately counted pieces meet. */
const SEAM_SLACK = 2

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
