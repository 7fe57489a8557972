/**
 * The offline consolidating mind: observations chosen by the extractive summarizer's value-per-
 * token selection within a share of the cycle's tokens (one line per source line, the priority its
 * cues earn), and the extractive reflection over them. Its answer is rendered in the seed's text
 * format and read back by the same strict parser as any model's.
 */
import { priorityOf } from '../../engine/core/extractive/priority.ts'
import { selectSentences } from '../../engine/core/extractive/select-sentences.ts'
import {
  explodeUnits,
  type SentenceRecord,
  type TextUnit,
} from '../../engine/core/extractive/sentences.ts'
import { renderUnits } from '../../engine/core/extractive/summarize.ts'
import { shorten } from '../../engine/core/extractive/text.ts'
import { unitOverheads } from '../../engine/core/extractive/unit-overheads.ts'
import type { Priority } from '../../engine/core/model-results.ts'
import { countTokens } from '../../engine/core/tokens.ts'
import { clockTime } from './activity.ts'
import {
  MAX_OBSERVATION_CHARS,
  type ParsedConsolidation,
  type ParsedObservation,
} from './consolidation-format.ts'
import {
  keepWhatMatters,
  levelByMeaning,
  type MeaningfulLine,
  readCycle,
  reflectOnCycle,
} from './cycle-meaning.ts'
import { observationLine } from './observations-file.ts'

const PRIORITY_ORDER: readonly Priority[] = ['RED', 'YLW', 'GRN']
/** Selection passes: each shrinks the budget by the overshoot of the rendered lines. */
const FIT_PASSES = 4
/** A short cycle still gets room for a few lines: a share of little is too little for one fact. */
const MIN_TOKENS = 80
/** Tokens of an observation line's `GRN HH:MM ` beyond the speaker prefix, as o200k counts them. */
const LINE_OVERHEAD = 5

/** Consolidates `units` (ids are conversation line numbers) within `share` of their tokens. */
export function extractiveConsolidation(
  units: readonly TextUnit[],
  share: number,
): ParsedConsolidation {
  const kept = units.filter((unit) => unit.text.trim() !== '')
  const cycle = cycleOf(kept)
  // What must be kept (orders, promises, unfixed failures) is paid for first, out of the share.
  const must = keepWhatMatters([], cycle, { failures: true })
  const mustLines = new Set(must.flatMap((item) => item.lines))
  const reserved = must.length > 0 ? countTokens(must.map(observationLine).join('\n')) : 0
  const target = Math.max(
    MIN_TOKENS - Math.min(reserved, MIN_TOKENS / 2),
    Math.floor(countTokens(renderUnits(kept)) * share) - reserved,
  )
  // The order sentences themselves are paid for; the rest of their lines competes as usual.
  const mustText = new Set(must.map((item) => item.text))
  const records = explodeUnits(kept).filter(
    (record) =>
      !mustLines.has(Number(kept[record.unitIndex]?.id)) ||
      ![...mustText].some((text) => text.includes(record.original.trim())),
  )
  let budget = target
  let observations: ParsedObservation[] = []
  for (let pass = 0; pass < FIT_PASSES && budget > 0; pass += 1) {
    observations = toObservations(selectLines(records, kept, budget), kept)
    const spent = countTokens(observations.map(observationLine).join('\n'))
    if (spent <= target) break
    budget = Math.floor((budget * target) / spent)
    observations = []
  }
  const all = keepWhatMatters(observations, cycle, { failures: true })
  const looked = reflectOnCycle(all, cycle, null)
  return { observations: all, reflection: looked.reflection, priority: looked.priority }
}

/** The units read for meaning (ids are conversation line numbers). */
function cycleOf(units: readonly TextUnit[]): MeaningfulLine[] {
  return readCycle(
    units.map((unit) => ({
      line: Number(unit.id),
      t: unit.timestamp ?? '',
      speaker: unit.speaker ?? 'user',
      text: unit.text,
    })),
  )
}

/** One observation per source line: its chosen sentences in order, the most urgent priority. */
function toObservations(
  chosen: readonly SentenceRecord[],
  units: readonly TextUnit[],
): ParsedObservation[] {
  const byUnit = new Map<number, SentenceRecord[]>()
  for (const record of [...chosen].sort((left, right) => left.index - right.index)) {
    const list = byUnit.get(record.unitIndex)
    if (list) list.push(record)
    else byUnit.set(record.unitIndex, [record])
  }
  const fixed = new Set(
    chosen.filter((record) => record.features.cues.includes('fix')).map((r) => r.unitIndex),
  )
  const cycle = cycleOf(units)
  const observations = [...byUnit].map(([unitIndex, records]): ParsedObservation => {
    const unit = units[unitIndex] as TextUnit
    const resolved = [0, 1, 2].some((step) => fixed.has(unitIndex + step))
    const meant = cycle[unitIndex] ? levelByMeaning(cycle[unitIndex]) : null
    const levels = meant ? [meant] : records.map((record) => levelOf(record, unit, resolved))
    const priority = PRIORITY_ORDER.find((level) => levels.includes(level)) ?? ('GRN' as Priority)
    // `tighten` capitalises what it keeps; a sentence it did not shorten stays as written (`npm`).
    const body = records
      .map((record) =>
        record.text.toLowerCase() === record.original.toLowerCase() ? record.original : record.text,
      )
      .join(' ')
    return {
      priority,
      time: clockTime(unit.timestamp ?? ''),
      text: shorten(unit.speaker ? `${unit.speaker}: ${body}` : body, MAX_OBSERVATION_CHARS - 1),
      lines: [Number(unit.id)].filter(Number.isInteger),
    }
  })
  return PRIORITY_ORDER.flatMap((level) => observations.filter((item) => item.priority === level))
}

/**
 * The seed's levels by cue (priority.ts), with one rule for GRN ("tool outputs, environment
 * facts, minor details"): a concrete fact someone said — a name, a number or a date, or a
 * statement about themselves, in a message rather than a tool's output — is not a minor detail but what the creature learned about its world,
 * so it is YLW (kept until superseded) rather than GRN (pruned after 48 h).
 */
function levelOf(record: SentenceRecord, unit: TextUnit, resolved: boolean): Priority {
  const level = priorityOf(record.features, resolved) ?? 'GRN'
  if (level !== 'GRN' || unit.speaker?.startsWith('tool')) return level
  const { names, numbers, dates, firstPerson, contentWords } = record.features
  return names.length + numbers + dates > 0 || (firstPerson && contentWords >= 3) ? 'YLW' : 'GRN'
}

/**
 * A light dream (no model call) for a cycle of few actions: the orders, promises and unfixed
 * failures it holds become observations (RED from the cycle they are given in), and the
 * reflection says what happened, worked and is open; the previous priority carries on when
 * nothing new is open.
 */
export function lightConsolidation(
  units: readonly TextUnit[],
  previousPriority: string | null,
): ParsedConsolidation {
  const cycle = cycleOf(units)
  const observations = keepWhatMatters([], cycle, { failures: true, results: true })
  return { observations, ...reflectOnCycle(observations, cycle, previousPriority) }
}

/** The sentences to keep, each opened unit costing its observation line's prefix besides its speaker. */
function selectLines(
  records: SentenceRecord[],
  units: TextUnit[],
  budget: number,
): SentenceRecord[] {
  const overheads = unitOverheads(units)
  return selectSentences(records, units, budget, {
    costs: records.map((record) => countTokens(` ${record.text}`)),
    overheads: {
      ...overheads,
      prefixCost: overheads.prefixCost.map((cost) => cost + LINE_OVERHEAD),
    },
  })
}

// A pure task the server's CPU threads run for the minds it hosts (service/service-cpu-tasks.ts).
declare module '../../engine/core/cpu-tasks.ts' {
  interface CpuTasks {
    extractiveConsolidation: typeof extractiveConsolidation
  }
}
