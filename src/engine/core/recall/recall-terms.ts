/**
 * The terms recall indexes and asks for, the same for every entry and every query: content words
 * stemmed (Porter), code names split at their joints (`load_session_messages`, `TranscriptComputers`,
 * `spotter-fum.5`) and also kept whole, so a question in plain words and one that names the
 * identifier both find it, and the identifier named exactly ranks first.
 */
import { STOP_WORDS } from '../extractive/stop-words.ts'
import { stem } from '../extractive/text.ts'
import { patternsFor } from './text-patterns.ts'

/** Longer tokens are base64, hashes or minified code: nothing a person asks for. */
const MAX_TERM_CHARS = 40

/** The terms of `text`: each word's stem, and each compound whole (lowercased) beside its parts. */
export function recallTerms(text: string): string[] {
  const terms: string[] = []
  // Compounds (a run of letters and digits joined by the marks code names use) split at their
  // joints (those marks, and a lower-to-upper change of case).
  const patterns = patternsFor(text)
  for (const compound of text.match(patterns.compound) ?? []) {
    if (compound.length > MAX_TERM_CHARS * 2) continue
    // Most words have no joint: no split (an array and its filtered copy per word were most of
    // the garbage an index build of 200,000 lines made).
    if (patterns.simpleWord?.test(compound)) {
      pushPart(terms, compound)
      continue
    }
    const parts = compound.split(patterns.joints).filter((part) => part !== '')
    if (parts.length > 1) {
      const whole = compound.toLowerCase().replace(/’/g, "'")
      // A possessive or contraction ("user's", "don't") is a word, not a code name.
      if (!patterns.contraction.test(whole) && whole.length <= MAX_TERM_CHARS) terms.push(whole)
    }
    for (const part of parts) pushPart(terms, part)
  }
  return terms
}

/** Adds the stem of `part` (a word of a compound) to `terms`, unless it says nothing. */
function pushPart(terms: string[], part: string): void {
  const lower = part.toLowerCase()
  if (STOP_WORDS.has(lower) || lower.length > MAX_TERM_CHARS) return
  // One letter says nothing on its own ("a" of "a/b"), one digit does ("gqc.4").
  if (lower.length === 1 && !/\d/.test(lower)) return
  terms.push(stem(lower))
}

/** Texts whose distinct terms are kept, most recent last (a hit's text is asked for twice). */
const RECENT = new Map<string, readonly string[]>()
const MAX_RECENT = 64

/** The distinct terms of a query, in order. */
export function queryTerms(text: string): string[] {
  const known = RECENT.get(text)
  if (known !== undefined) return [...known]
  const terms = [...new Set(recallTerms(text))]
  // The prompt hook asks this of each hit twice (its coverage, then the relevance floor).
  if (RECENT.size >= MAX_RECENT) RECENT.delete(RECENT.keys().next().value as string)
  RECENT.set(text, terms)
  return [...terms]
}
