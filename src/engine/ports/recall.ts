/**
 * Recall: one full-text index over what Somnus keeps (a brain's files and transcripts, a
 * creature's logs, a tenant's handoffs), asked by every front door (CLI, MCP, the prompt hook,
 * HTTP). Entries are put in by their owner and found by words; each hit names its place and its
 * sources, so the agent can open it and the user can trace it. Adapters: an in-process library
 * (engine/adapters/search), SQL full-text search (tsvector + GIN). Contract: recall.contract.ts.
 */
import type { RecallEntry } from '../core/recall/recall-entry.ts'

export type { RecallEntry } from '../core/recall/recall-entry.ts'
export { isOnOrAfter } from '../core/recall/recall-entry.ts'

/** A question to the index. */
export interface RecallQuery {
  /** The words to look for, as a person types them (any characters: never a query syntax). */
  text: string
  /** At most this many hits. */
  limit: number
  /** Only entries of these kinds (all when absent or empty). */
  in?: readonly string[]
  /**
   * Only entries dated on or after this ISO date or date-time (compared at the shorter precision
   * of the two); entries without a date are left out when it is given.
   */
  since?: string
  /** The most characters a hit's snippet may have (default `DEFAULT_SNIPPET_CHARS`). */
  snippetChars?: number
}

/** One answer, best first. */
export interface RecallHit {
  id: string
  kind: string
  location: string
  /** The entry's whole text, as put (callers check it against the file before showing it). */
  text: string
  /** The part of the text worth showing: at most `snippetChars`, around the words that matched. */
  snippet: string
  date: string | null
  sources: string[]
  /** How well it matched, higher is better; comparable only between hits of one query. */
  score: number
}

/** A snippet's size when the query names none. */
export const DEFAULT_SNIPPET_CHARS = 300

/** A full-text index of recall entries. */
export interface RecallIndex {
  /** Adds the entries, replacing any with the same id. */
  put(entries: readonly RecallEntry[]): Promise<void>
  /** Removes the entries with these ids; unknown ids are ignored. */
  remove(ids: readonly string[]): Promise<void>
  /**
   * The entries that share words (in any form: `tests` finds `test`, `failing` finds `failed`)
   * with the query, best first. A query with no searchable word gives no hits, never an error.
   */
  search(query: RecallQuery): Promise<RecallHit[]>
}
