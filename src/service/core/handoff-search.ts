/**
 * Search over a tenant's handoffs (`GET /api/v1/search`, `somnus handoffs search`): what is
 * searched and what a hit says. A handoff is searched by unit, the smallest piece a hit can name:
 * each turn (a LoCoMo dialog id such as `D3:7`), each text field of a handoff without turns, its
 * summary and its quick reference. A turn is found by its own words first, then by its speaker's
 * name and the turns either side of it (a reply that says "yes, last Tuesday" is found by the
 * question it answers): those words place it but are never shown.
 */
import * as z from 'zod'
import type { RecallEntry } from '../../engine/core/recall/recall-entry.ts'
import { HANDOFF_TEXT_FIELDS, type Handoff } from './handoff.ts'

/** The texts a search can keep to: the original (fields and turns), the summary, the quick reference. */
export const SEARCH_LEVELS = ['full', 'summary', 'quick_ref'] as const

/** One of SEARCH_LEVELS. */
export const SearchLevelSchema = z.enum(SEARCH_LEVELS)
/** `full`, `summary` or `quick_ref`. */
export type SearchLevel = z.infer<typeof SearchLevelSchema>

/** Most characters a query may have (a question, not a document). */
export const MAX_QUERY_CHARS = 1_000
/** Most hits one search returns. */
export const MAX_SEARCH_LIMIT = 100
/** Hits when the caller names no limit. */
export const DEFAULT_SEARCH_LIMIT = 10

/** A search as a caller asks it. */
export interface HandoffSearchQuery {
  text: string
  limit: number
  level?: SearchLevel | undefined
}

/** One unit that matched, best first. */
export interface HandoffSearchHit {
  handoff_id: string
  /** The unit: a turn id (`D3:7`), a field name (`learned`), `summary` or `quick_ref`. */
  unit: string
  level: SearchLevel
  /** Who said it (turns only). */
  speaker: string | null
  /** The unit's text, cut to the part around the words that matched. */
  snippet: string
  /** When the handoff's session happened. */
  created_at: string
  /** The raw items it came from: the turn id, the handoff's field, or the ids a summary cites. */
  sources: string[]
  /** Higher is better; comparable only between hits of one search. */
  score: number
}

/**
 * How a turn's surroundings count (tuned on LoCoMo conversations 26 and 30 only; bench/README.md
 * has the grid and the held-out result).
 */
export interface UnitWeights {
  /** Turns either side of a turn whose words are its context. */
  neighbours: number
  /** A context word's weight against a word of the turn itself. */
  context: number
}

/** The weights the service searches with. */
export const UNIT_WEIGHTS: UnitWeights = { neighbours: 2, context: 0.8 }

/** A unit to index: the recall entry, the text to show, and the hit it becomes. */
export interface SearchUnit {
  entry: RecallEntry
  /** The unit's text as stored (the entry's text may leave out the speakers' names). */
  shown: string
  hit: Omit<HandoffSearchHit, 'snippet' | 'score'>
}

/**
 * `text` without the names of the conversation's speakers. In a dialog those names are mostly
 * how one speaker addresses the other ("Thanks, Melanie!"), so a question about Melanie would
 * find the turns said TO her; a turn is found by who said it instead (its speaker, a context word).
 */
export function withoutNames(text: string, names: readonly string[]): string {
  const words = names
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  if (words.length === 0) return text
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?![\\p{L}\\p{N}])`, 'giu')
  return text.replace(pattern, ' ')
}

/** Every searchable unit of `handoffs` at `level` (every level when absent). */
export function searchUnits(
  handoffs: readonly Handoff[],
  level: SearchLevel | undefined,
  weights: UnitWeights = UNIT_WEIGHTS,
): SearchUnit[] {
  const units: SearchUnit[] = []
  for (const handoff of handoffs) {
    const add = (
      unit: string,
      unitLevel: SearchLevel,
      text: string,
      extra: { speaker?: string | null; context?: string; found?: string; sources: string[] },
    ) => {
      if (text.trim() === '') return
      const id = `${handoff.handoff_id}\n${unit}`
      units.push({
        shown: text,
        entry: {
          id,
          kind: unitLevel,
          location: `${handoff.handoff_id}#${unit}`,
          text: extra.found ?? text,
          context: extra.context,
          date: handoff.created_at,
          sources: extra.sources,
        },
        hit: {
          handoff_id: handoff.handoff_id,
          unit,
          level: unitLevel,
          speaker: extra.speaker ?? null,
          created_at: handoff.created_at,
          sources: extra.sources,
        },
      })
    }
    if (level === undefined || level === 'full') {
      const turns = handoff.turns ?? []
      const speakers = [...new Set(turns.map((turn) => turn.speaker ?? ''))]
      const found = turns.map((turn) => withoutNames(turn.text, speakers))
      turns.forEach((turn, index) => {
        const around = found
          .slice(Math.max(0, index - weights.neighbours), index + weights.neighbours + 1)
          .filter((_, offset) => offset !== Math.min(index, weights.neighbours))
        add(turn.id, 'full', turn.text, {
          speaker: turn.speaker ?? null,
          found: found[index],
          context: [turn.speaker ?? '', ...around].join('\n'),
          sources: [turn.id],
        })
      })
      for (const field of HANDOFF_TEXT_FIELDS) {
        add(field, 'full', handoff[field] ?? '', {
          context: handoff.with_whom ?? '',
          sources: [`${handoff.handoff_id}#${field}`],
        })
      }
    }
    if ((level === undefined || level === 'summary') && handoff.summary !== null) {
      add('summary', 'summary', handoff.summary, { sources: handoff.summary_sources })
    }
    if ((level === undefined || level === 'quick_ref') && handoff.quick_ref !== null) {
      add('quick_ref', 'quick_ref', handoff.quick_ref, { sources: handoff.quick_ref_sources })
    }
  }
  return units
}
