/**
 * Budgeted extractive summaries: choose RED sentences first, then the sentences that add the most
 * new information per token (TF-IDF coverage plus fact cues, minus an MMR-style redundancy
 * penalty; features.ts), and render them in their original order, speaker-prefixed, under a date
 * header. Never exceeds the budget as counted by `countTokens` of the returned text.
 */
import { countTokens } from '../tokens.ts'
import { featureBonus, WEIGHTS } from './features.ts'
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
  vector: SparseVector
  uniqueStems: string[]
  /** Weight of its stems not yet covered by a chosen sentence. */
  freshWeight: number
  /** Highest cosine similarity to a chosen sentence. */
  closest: number
  taken: boolean
  /** Seed 004's critical facts (commitments, bans, credentials, wins, decisions, blocking errors) go first. */
  red: boolean
}

/** Greedy choice in order of value per token; returns the chosen records in order of choice. */
function selectSentences(
  records: SentenceRecord[],
  units: readonly TextUnit[],
  budget: number,
): SentenceRecord[] {
  const idf = inverseDocumentFrequency(records.map((record) => record.stems))
  const maxIdf = Math.max(1e-9, ...idf.values())
  const weight = (stem: string) => (idf.get(stem) ?? 0) / maxIdf
  const candidates: Candidate[] = records.map((record) => {
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
  const byStem = new Map<string, Candidate[]>()
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
    let best: { candidate: Candidate; cost: number; key: [number, number] } | undefined
    for (const candidate of candidates) {
      // Chatter is never worth a token, even when the budget has room to spare.
      if (candidate.taken || candidate.record.features.chatter) continue
      const { unitIndex } = candidate.record
      const date = dates[unitIndex]
      let cost = candidate.cost
      if (!openUnits.has(unitIndex)) cost += prefixCost[unitIndex] ?? 1
      if (date && !openDates.has(date)) cost += headerCost[unitIndex] ?? 0
      if (spent + cost > budget) continue
      const gain = candidate.freshWeight + candidate.bonus - WEIGHTS.redundancy * candidate.closest
      // RED sentences first, then positive gains on value per token, then fill by plain gain.
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
