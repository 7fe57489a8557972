/** A cheap, deterministic "says the same thing" test for one-line memory entries. */

const SOURCES_COMMENT = /<!--[\s\S]*?-->/g

/** The content words of a memory line, lowercased, without its bullet and sources comment. */
export function contentWords(line: string): Set<string> {
  const text = line
    .replace(SOURCES_COMMENT, '')
    .replace(/^\s*[-*]\s+/, '')
    .toLowerCase()
  return new Set(text.match(/[a-z0-9]+/g)?.filter((word) => word.length > 2) ?? [])
}

/** Jaccard overlap of two word sets (1 when both are empty). */
export function overlap(left: Set<string>, right: Set<string>): number {
  if (left.size === 0 && right.size === 0) return 1
  let shared = 0
  for (const word of left) if (right.has(word)) shared += 1
  return shared / (left.size + right.size - shared)
}

/** Lines at or above this overlap are the same entry said again: `sleep run` does not repeat it. */
export const SAME_ENTRY_OVERLAP = 0.7

/** True when `candidate` repeats one of `existing` (by wording). */
export function repeatsAny(candidate: string, existing: readonly string[]): boolean {
  const words = contentWords(candidate)
  return existing.some((line) => overlap(words, contentWords(line)) >= SAME_ENTRY_OVERLAP)
}
