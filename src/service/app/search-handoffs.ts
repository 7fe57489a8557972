/**
 * Search over a tenant's handoffs, by unit (service/core/handoff-search.ts). The database finds
 * the handoffs that share a word with the query (its own full-text index, kept in step with every
 * write); their units are then ranked together by BM25 in a recall index made for this one
 * search, so a turn is weighed against the other turns, not against whole handoffs.
 */
import { queryTerms } from '../../engine/core/recall/recall-terms.ts'
import { snippetOf } from '../../engine/core/recall/snippet.ts'
import {
  DEFAULT_SNIPPET_CHARS,
  type RecallHit,
  type RecallIndex,
} from '../../engine/ports/recall.ts'
import {
  type HandoffSearchHit,
  type HandoffSearchQuery,
  type SearchUnit,
  searchUnits,
} from '../core/handoff-search.ts'
import { dateBoosts, queryDates } from '../core/query-dates.ts'
import { speakerBoosts } from '../core/query-speakers.ts'
import { requireTenant } from './create-handoffs.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/**
 * Handoffs the database hands over to be ranked: enough that the units of a long conversation
 * (a LoCoMo conversation has 19-32 sessions) are all weighed, few enough to keep one search cheap.
 */
export const SEARCH_CANDIDATES = 200

/** The units of the tenant's handoffs that best match `query`, best first. */
export async function searchHandoffs(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  /** A fresh in-memory index weighing context words as UNIT_WEIGHTS.context says. */
  newIndex: () => RecallIndex,
  tenantId: string,
  query: HandoffSearchQuery,
): Promise<HandoffSearchHit[]> {
  await requireTenant(dependencies, tenantId)
  const text = query.text.replace(/\0/g, ' ')
  const candidates = await dependencies.stores.handoffs.search(tenantId, {
    text,
    level: query.level,
    limit: SEARCH_CANDIDATES,
  })
  if (candidates.length === 0) return []
  const units = searchUnits(candidates, query.level)
  const byId = new Map<string, SearchUnit>(units.map((unit) => [unit.entry.id, unit]))
  const index = newIndex()
  await index.put(units.map((unit) => unit.entry))
  const hits = await ranked(index, units, text, query.limit)
  const terms = queryTerms(text)
  return hits.flatMap((hit) => {
    const unit = byId.get(hit.id)
    if (unit === undefined) return []
    // The snippet of the text as stored (the index's text may leave out the speakers' names).
    const snippet = snippetOf(unit.shown, terms, DEFAULT_SNIPPET_CHARS)
    return [{ ...unit.hit, snippet, score: hit.score }]
  })
}

/**
 * The index's best `limit` hits, after a unit is weighed up for being of a session on a date the
 * question names ("in July 2022", service/core/query-dates.ts) and for being said by a speaker it
 * names (service/core/query-speakers.ts). Every unit is then ranked: the one turn of that week
 * may be far down by its words alone.
 */
async function ranked(
  index: RecallIndex,
  units: readonly SearchUnit[],
  text: string,
  limit: number,
): Promise<RecallHit[]> {
  const byDate = dateBoosts(
    queryDates(text),
    units.map((unit) => unit.entry.date ?? ''),
  )
  const bySpeaker = speakerBoosts(
    text,
    units.map((unit) => unit.hit.speaker),
  )
  // The index's snippets are not shown (the caller cuts its own from the stored text).
  if (byDate === null && bySpeaker === null) return index.search({ text, limit, snippetChars: 0 })
  const boostOf = new Map(
    units.map((unit, at) => [unit.entry.id, (byDate?.[at] ?? 1) * (bySpeaker?.[at] ?? 1)]),
  )
  const all = await index.search({ text, limit: units.length, snippetChars: 0 })
  return all
    .map((hit) => ({ ...hit, score: hit.score * (boostOf.get(hit.id) ?? 1) }))
    .sort((left, right) => right.score - left.score)
    .slice(0, limit)
}
