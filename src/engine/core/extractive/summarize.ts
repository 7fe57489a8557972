/**
 * Budgeted extractive summaries: choose RED sentences first, then the sentences that add the most
 * new information per token (TF-IDF coverage plus fact cues, minus an MMR-style redundancy
 * penalty; features.ts), and render them in their original order, speaker-prefixed, under a date
 * header. Never exceeds the budget as counted by `countTokens` of the returned text.
 */
import { countTokens } from '../tokens.ts'
import { explodeClauses } from './clauses.ts'
import { selectSentences } from './select-sentences.ts'
import { explodeUnits, type SentenceRecord, speakerNameSet, type TextUnit } from './sentences.ts'
import { parseTimestamp } from './timestamps.ts'
import { type UnitOverheads, unitOverheads } from './unit-overheads.ts'

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
  /** Clauses rather than sentences, at most one per unit: a terse reference. */
  terse?: boolean
}

/** Prepares `units` for `summarizePrepared`; `terse` for a reference told in clauses. */
export function prepareUnits(units: readonly TextUnit[], terse = false): PreparedUnits {
  const kept = units.filter((unit) => unit.text.trim().length > 0)
  const records = explodeUnits(kept)
  if (!terse) return { units: kept, records, costs: new Array(records.length) }
  return terseOf({ units: kept, records, costs: [] })
}

/** `prepared` told in clauses, at most one chosen per unit (clauses.ts). */
function terseOf(prepared: PreparedUnits): PreparedUnits {
  if (prepared.terse) return prepared
  const records = explodeClauses(prepared.units, prepared.records)
  return { units: prepared.units, records, costs: new Array(records.length), terse: true }
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
    return prepareUnits(units, prepared.terse)
  }
  const records: SentenceRecord[] = []
  const costs: (number | undefined)[] = []
  prepared.records.forEach((record, at) => {
    const unitIndex = newIndex.get(record.unitIndex)
    if (unitIndex === undefined) return
    records.push({ ...record, index: records.length, unitIndex })
    costs.push(prepared.costs[at])
  })
  return prepared.terse ? { units, records, costs, terse: true } : { units, records, costs }
}

/**
 * Summarizes `units` in at most `budgetTokens` tokens; everything when it all fits. `terse`: a
 * reference rather than a summary, the salient clause of at most one sentence per unit.
 */
export function summarizeUnits(
  units: readonly TextUnit[],
  budgetTokens: number,
  terse = false,
): ExtractiveSummary {
  const { text, sources } = summarizePrepared(prepareUnits(units, terse), budgetTokens)
  return { text, sources }
}

/**
 * Summaries of `units` at each budget in turn, each made from the units the one before kept (all
 * of them when it kept none): the service's progression full → summary → quick ref, with the
 * text prepared once. Levels from `terseFrom` on (after the first, by default) are terse
 * references (`summarizeUnits`).
 */
export function summarizeLevels(
  units: readonly TextUnit[],
  budgets: readonly number[],
  terseFrom = 1,
): MeasuredSummary[] {
  let prepared = prepareUnits(units, terseFrom <= 0)
  const summaries: MeasuredSummary[] = []
  for (const [at, budget] of budgets.entries()) {
    const summary = summarizePrepared(prepared, budget)
    summaries.push(summary)
    if (at === budgets.length - 1) break
    const kept = new Set(summary.sources)
    const narrowed = narrowPrepared(prepared, kept)
    const next = narrowed.units.length > 0 ? narrowed : prepared
    prepared = at + 1 >= terseFrom ? terseOf(next) : next
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
  let chosen = selectSentences(records, units, budgetTokens, { costs, overheads }, prepared.terse)
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
