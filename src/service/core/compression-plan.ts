/**
 * Progressive compression, computed: which level a handoff's age calls for, which levels it still
 * lacks (a handoff first seen at 120 days needs both a summary and a quick ref), the units its
 * levels are made from, and the tokens of the text each level stands for. `integrated` is never
 * reached by age alone: only a handoff whose "becoming" statement identity consolidation folded
 * into a principle goes there; any other rests at `quick_ref`, its last level of its own.
 */
import { renderUnits } from '../../engine/core/extractive/summarize.ts'
import type { Unit } from '../../engine/core/model-results.ts'
import { countTokens } from '../../engine/core/tokens.ts'
import {
  COMPRESSION_LEVELS,
  type CompressionLevel,
  HANDOFF_TEXT_FIELDS,
  type Handoff,
} from './handoff.ts'
import type { ServiceConfig } from './service-config.ts'

const DAY_MS = 86_400_000

/** The parts of a handoff compression reads. */
export type CompressibleHandoff = Pick<
  Handoff,
  | 'handoff_id'
  | 'created_at'
  | 'compression_level'
  | 'summary'
  | 'quick_ref'
  | 'turns'
  | 'full_tokens'
  | 'summary_tokens'
  | 'quick_ref_tokens'
  | 'integrated_into'
  | (typeof HANDOFF_TEXT_FIELDS)[number]
>

/** What compressing one handoff must do. */
export interface CompressionStep {
  handoff_id: string
  target: CompressionLevel
  needsSummary: boolean
  needsQuickRef: boolean
}

/** The rank of a level: full 0 … integrated 3. */
export function levelRank(level: CompressionLevel): number {
  return COMPRESSION_LEVELS.indexOf(level)
}

/** The level a handoff of this age belongs at: older than a threshold (strictly) reaches its level. */
export function levelForAge(ageMs: number, config: ServiceConfig): CompressionLevel {
  if (ageMs > config.integration_threshold_days * DAY_MS) return 'integrated'
  if (ageMs > config.quick_ref_threshold_days * DAY_MS) return 'quick_ref'
  if (ageMs > config.summary_threshold_days * DAY_MS) return 'summary'
  return 'full'
}

/** The instant before which a handoff is old enough to need at least a summary. */
export function summaryCutoff(asOf: Date, config: ServiceConfig): Date {
  return new Date(asOf.getTime() - config.summary_threshold_days * DAY_MS)
}

/**
 * What compressing `handoff` at `asOf` must do, or null when it is where it belongs. Levels only
 * rise (a lowered threshold never undoes work), and every missing lower level is made on the way,
 * except a level whose budget the text below it already fits: a 300-token handoff gets no
 * "summary" (it would be itself), so it reaches the summary level with its full text active.
 */
export function planCompression(
  handoff: CompressibleHandoff,
  asOf: Date,
  config: ServiceConfig,
): CompressionStep | null {
  const aged = levelForAge(asOf.getTime() - Date.parse(handoff.created_at), config)
  const byAge = aged === 'integrated' && handoff.integrated_into === null ? 'quick_ref' : aged
  const target =
    levelRank(byAge) > levelRank(handoff.compression_level) ? byAge : handoff.compression_level
  const rank = levelRank(target)
  const needsSummary =
    rank >= levelRank('summary') &&
    handoff.summary === null &&
    handoff.full_tokens > config.summary_budget_tokens
  const needsQuickRef =
    rank >= levelRank('quick_ref') &&
    handoff.quick_ref === null &&
    (handoff.summary_tokens ?? handoff.full_tokens) > config.quick_ref_budget_tokens
  if (target === handoff.compression_level && !needsSummary && !needsQuickRef) return null
  return { handoff_id: handoff.handoff_id, target, needsSummary, needsQuickRef }
}

/**
 * The units a handoff's levels are made from: its non-empty fields (id `<handoff_id>#<field>`,
 * the field name as speaker) then its raw turns (their own ids), all dated by the handoff.
 */
export function handoffUnits(
  handoff: Pick<
    Handoff,
    'handoff_id' | 'created_at' | 'turns' | (typeof HANDOFF_TEXT_FIELDS)[number]
  >,
): Unit[] {
  const units: Unit[] = []
  for (const field of HANDOFF_TEXT_FIELDS) {
    const text = handoff[field]
    if (text && text.trim() !== '')
      units.push({
        id: `${handoff.handoff_id}#${field}`,
        speaker: field,
        text,
        timestamp: handoff.created_at,
      })
  }
  for (const turn of handoff.turns ?? []) {
    if (turn.text.trim() === '') continue
    units.push({
      id: turn.id,
      text: turn.text,
      timestamp: handoff.created_at,
      ...(turn.speaker ? { speaker: turn.speaker } : {}),
    })
  }
  return units
}

/** Tokens of the text a level stands for: the full rendering, the summary or the quick ref. */
export function levelTokens(
  handoff: Pick<Handoff, 'full_tokens' | 'summary_tokens' | 'quick_ref_tokens'>,
  level: CompressionLevel,
): number {
  if (level === 'full') return handoff.full_tokens
  if (level === 'summary') return handoff.summary_tokens ?? handoff.full_tokens
  return handoff.quick_ref_tokens ?? handoff.summary_tokens ?? handoff.full_tokens
}

/** The full text of a handoff, as its levels are measured against: every unit rendered in full. */
export function renderHandoff(units: readonly Unit[]): { text: string; tokens: number } {
  const text = renderUnits(units)
  return { text, tokens: countTokens(text) }
}
