/** The unit recall indexes (engine/ports/recall.ts), defined in core so that core can build entries. */

/** One searchable unit: a line of a brain file, a transcript message, a handoff or one turn of it. */
export interface RecallEntry {
  /** Stable and unique within the index: putting the same id again replaces the entry. */
  id: string
  /** What it is, for `in` filters (`core`, `sessions`, `transcripts`, `conversation`, `turn` ...). */
  kind: string
  /** Where a person or agent finds it: `_agent_context/core/2.memory.md:12`, `<transcript>#<uuid>`. */
  location: string
  /** The text found and shown. */
  text: string
  /**
   * Words that place the entry but are not its text (a note's title, the section heading, the file
   * name): they help it be found, they are never shown.
   */
  context?: string
  /** When it was written or last true: an ISO date (`2026-03-02`) or date-time; null when unknown. */
  date: string | null
  /** The ids of the raw items it came from (session ids, message uuids, handoff ids, turn ids). */
  sources: readonly string[]
}

/**
 * True when `date` is on or after `since`, compared at the shorter precision of the two (so
 * `2026-03-02T10:00Z` is on or after `2026-03-02`); false for an entry without a date.
 */
export function isOnOrAfter(date: string | null, since: string): boolean {
  if (date === null) return false
  const length = Math.min(date.length, since.length)
  return date.slice(0, length) >= since.slice(0, length)
}
