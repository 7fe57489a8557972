/**
 * The recall index in-process, on MiniSearch 7 (an inverted index on a radix tree, BM25+ ranking):
 * chosen over Orama and FlexSearch by measurement on the real data (docs/design/recall.md). Terms
 * come from engine/core/recall/recall-terms.ts, so stems and code names are found alike; the index and
 * its entries serialize to one JSON text, which callers keep beside the brain or creature so that
 * a query never rebuilds what an earlier run already indexed.
 */
import MiniSearch, { type AsPlainObject } from 'minisearch'
import { queryTerms, recallTerms } from '../../core/recall/recall-terms.ts'
import { snippetOf } from '../../core/recall/snippet.ts'
import {
  DEFAULT_SNIPPET_CHARS,
  isOnOrAfter,
  type RecallEntry,
  type RecallHit,
  type RecallIndex,
} from '../../ports/recall.ts'

/** A recall index that can be written out and read back whole. */
export interface SerializableRecallIndex extends RecallIndex {
  /** How many entries it holds. */
  readonly size: number
  /** The ids of every entry (for a caller that keeps track of what came from where). */
  ids(): IterableIterator<string>
  /** The index and its entries as one JSON text (`loadMiniSearchRecallIndex` reads it back). */
  serialize(): string
}

/** Bumped when the terms or the layout change: an index of another format is rebuilt, not read. */
export const RECALL_INDEX_FORMAT = 1

/** The entry's text weighs this much more than its context words (title, heading, file name). */
const CONTEXT_BOOST = 0.4

const FIELDS = ['text', 'context']

type Packed = [
  id: string,
  kind: string,
  location: string,
  text: string,
  context: string,
  date: string | null,
  sources: readonly string[],
]

interface Serialized {
  format: number
  entries: Packed[]
  index: AsPlainObject
}

/** How a fresh index weighs its fields. */
export interface MiniSearchRecallOptions {
  /** A context word's weight against a text word's (default 0.4). */
  contextBoost?: number | undefined
}

function options(contextBoost = CONTEXT_BOOST) {
  return {
    fields: FIELDS,
    idField: 'id',
    tokenize: (text: string) => recallTerms(text),
    processTerm: (term: string) => term,
    extractField: (entry: RecallEntry, field: string) =>
      field === 'context'
        ? (entry.context ?? '')
        : ((entry as unknown as Record<string, string>)[field] ?? ''),
    autoVacuum: false,
    searchOptions: { boost: { text: 1, context: contextBoost } },
  }
}

/** A fresh, empty index. */
export function createMiniSearchRecallIndex(
  settings: MiniSearchRecallOptions = {},
): SerializableRecallIndex {
  return wrap(new MiniSearch<RecallEntry>(options(settings.contextBoost)), new Map())
}

/**
 * The index `serialize` wrote, or null when `json` is not one of this format (an older Somnus,
 * a damaged file): the caller then builds a fresh one.
 */
export function loadMiniSearchRecallIndex(json: string): SerializableRecallIndex | null {
  let data: Serialized
  try {
    data = JSON.parse(json) as Serialized
  } catch {
    return null
  }
  if (data?.format !== RECALL_INDEX_FORMAT || !Array.isArray(data.entries)) return null
  try {
    const entries = new Map<string, RecallEntry>()
    for (const [id, kind, location, text, context, date, sources] of data.entries) {
      entries.set(id, { id, kind, location, text, context, date, sources })
    }
    return wrap(MiniSearch.loadJS<RecallEntry>(data.index, options()), entries)
  } catch {
    return null
  }
}

function wrap(
  search: MiniSearch<RecallEntry>,
  entries: Map<string, RecallEntry>,
): SerializableRecallIndex {
  const removeIds = (ids: Iterable<string>) => {
    for (const id of ids) {
      const old = entries.get(id)
      if (old === undefined) continue
      search.remove(old)
      entries.delete(id)
    }
  }
  return {
    get size() {
      return entries.size
    },
    ids: () => entries.keys(),
    async put(list) {
      removeIds(list.map((entry) => entry.id))
      // The last of two entries with one id wins, as two puts in turn would.
      const unique = new Map(list.map((entry) => [entry.id, entry]))
      for (const entry of unique.values()) {
        const copy = { ...entry, sources: [...entry.sources] }
        entries.set(entry.id, copy)
        search.add(copy)
      }
    },
    async remove(ids) {
      removeIds(ids)
    },
    async search(query) {
      const terms = queryTerms(query.text.replace(/\0/g, ' '))
      if (terms.length === 0 || query.limit <= 0) return []
      const kinds = query.in && query.in.length > 0 ? new Set(query.in) : null
      const since = query.since
      const results = search.search(terms.join(' '), {
        tokenize: (text: string) => text.split(' '),
        filter: (result) => {
          const entry = entries.get(result.id as string)
          if (entry === undefined) return false
          if (kinds !== null && !kinds.has(entry.kind)) return false
          return since === undefined || isOnOrAfter(entry.date, since)
        },
      })
      const budget = query.snippetChars ?? DEFAULT_SNIPPET_CHARS
      const hits: RecallHit[] = []
      for (const result of results) {
        if (hits.length >= query.limit) break
        const entry = entries.get(result.id as string)
        if (entry === undefined) continue
        hits.push({
          id: entry.id,
          kind: entry.kind,
          location: entry.location,
          text: entry.text,
          snippet: snippetOf(entry.text, terms, budget),
          date: entry.date,
          sources: [...entry.sources],
          score: result.score,
        })
      }
      return hits
    },
    serialize() {
      const packed: Packed[] = []
      for (const entry of entries.values()) {
        packed.push([
          entry.id,
          entry.kind,
          entry.location,
          entry.text,
          entry.context ?? '',
          entry.date,
          entry.sources,
        ])
      }
      const data: Serialized = {
        format: RECALL_INDEX_FORMAT,
        entries: packed,
        index: search.toJSON(),
      }
      return JSON.stringify(data)
    },
  }
}
