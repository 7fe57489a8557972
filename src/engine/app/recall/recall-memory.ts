/**
 * `recall`: asks every shelf, checks each hit against its source (a stale `file:line` is moved to
 * where its text is now, or dropped), folds hits with the same text into one that keeps every
 * place and every source (a fact in a digest line and in a core line comes back once), and keeps
 * the best `limit`.
 */

import { normalizedText } from '../../core/recall/brain-entries.ts'
import { queryTerms } from '../../core/recall/recall-terms.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import type { RecallHit, RecallIndex, RecallQuery } from '../../ports/recall.ts'
import type { RecallSources } from '../../ports/recall-sources.ts'

/** A hit as the front doors show it: the best place, and any other place holding the same text. */
export interface MemoryHit extends RecallHit {
  /** Other places with the same text (a digest line copied into a core file). */
  also: string[]
  /** The share of the query's terms the hit holds (0 to 1): what a relevance floor compares. */
  coverage: number
}

/** One searchable store: its index and where its entries come from. */
export interface RecallShelfSource {
  index: RecallIndex
  sources: RecallSources
}

/** Hits asked of each shelf per hit wanted: room for the ones dropped as stale or folded. */
const OVERFETCH = 3

/** The best `query.limit` hits of every shelf, checked and folded. */
export async function recallMemory(
  shelves: readonly RecallShelfSource[],
  query: RecallQuery,
): Promise<MemoryHit[]> {
  if (query.limit <= 0) return []
  const terms = queryTerms(query.text)
  const found: { hit: RecallHit; sources: RecallSources }[] = []
  for (const shelf of shelves) {
    const hits = await shelf.index.search({ ...query, limit: query.limit * OVERFETCH + 5 })
    for (const hit of hits) found.push({ hit, sources: shelf.sources })
  }
  found.sort((left, right) => right.hit.score - left.hit.score)
  const byText = new Map<string, MemoryHit>()
  const kept: MemoryHit[] = []
  for (const { hit, sources } of found) {
    const key = normalizedText(hit.text)
    const same = byText.get(key)
    // Once the list is full only copies of kept hits matter: nothing else is checked on disk.
    if (same === undefined && kept.length >= query.limit) continue
    const location = await sources.locate(hit)
    if (location === null) continue
    if (same) {
      if (location !== same.location && !same.also.includes(location)) same.also.push(location)
      for (const source of hit.sources)
        if (!same.sources.includes(source)) same.sources.push(source)
      continue
    }
    // Entries are redacted when indexed; an index built before a format was known is not.
    // The snippet is made when first read (a spread would read it): the prompt hook shows half
    // of the hits it asks for, and a snippet stems the words of its text.
    let snippet: string | undefined
    const memoryHit: MemoryHit = {
      id: hit.id,
      kind: hit.kind,
      location,
      text: redactSecrets(hit.text),
      get snippet() {
        snippet ??= redactSecrets(hit.snippet)
        return snippet
      },
      date: hit.date,
      sources: [...hit.sources],
      score: hit.score,
      also: [],
      coverage: coverageOf(hit.text, terms),
    }
    byText.set(key, memoryHit)
    kept.push(memoryHit)
  }
  return kept
}

/** The share of `terms` that `text` holds. */
function coverageOf(text: string, terms: readonly string[]): number {
  if (terms.length === 0) return 0
  const have = new Set(queryTerms(text))
  return terms.filter((term) => have.has(term)).length / terms.length
}
