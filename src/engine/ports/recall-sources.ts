/**
 * Where recall entries come from, and where an index is kept between runs: the brain's files and
 * transcripts on disk (brain/adapters/fs/brain-recall-sources.ts), a creature's logs; a shelf in a
 * dot-file beside them (engine/adapters/search/recall-shelf-file.ts). The use cases in app/recall keep
 * the shelf current by the sources' stamps, so only what changed is indexed again.
 */
import type { RecallEntry, RecallHit, RecallIndex } from './recall.ts'

/** One file (or other unit) that gives entries, and a stamp that changes when its text does. */
export interface RecallSource {
  key: string
  kind: string
  stamp: string
}

/** The sources of one store and how to read them. */
export interface RecallSources {
  /** Every source there is now. */
  list(): Promise<RecallSource[]>
  /** The source's entries, read now. */
  entries(source: RecallSource): Promise<RecallEntry[]>
  /**
   * Where `hit` stands now: its location when its text is still there, the new location when the
   * text moved (lines added above it), or null when the text is gone (never show a stale place).
   */
  locate(hit: RecallHit): Promise<string | null>
}

/** An index kept between runs, with the stamp and entry ids of every source it holds. */
export interface RecallShelf {
  readonly index: RecallIndex
  /** Source key → the stamp it was indexed at and the ids of its entries. */
  readonly stamps: Map<string, { stamp: string; ids: string[] }>
  /** False when the shelf was not found (or not readable) and starts empty. */
  readonly existed: boolean
  /** Writes the shelf back (atomically). */
  save(): Promise<void>
}
