/**
 * The terms recall indexes and asks for, the same for every entry and every query: content words
 * stemmed (Porter), code names split at their joints (`load_session_messages`, `TranscriptComputers`,
 * `spotter-fum.5`) and also kept whole, so a question in plain words and one that names the
 * identifier both find it, and the identifier named exactly ranks first.
 */
import { STOP_WORDS } from '../extractive/stop-words.ts'
import { stem } from '../extractive/text.ts'

/** A run of letters and digits, joined by the marks code names use (`_ . - / :`). */
const COMPOUND = /[\p{L}\p{N}]+(?:[_.\-/:'’]*[\p{L}\p{N}]+)*/gu
/** Where a compound splits into words: its marks, and a lower-to-upper change of case. */
const JOINTS = /[_.\-/:'’]+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u
/** Longer tokens are base64, hashes or minified code: nothing a person asks for. */
const MAX_TERM_CHARS = 40

/** The terms of `text`: each word's stem, and each compound whole (lowercased) beside its parts. */
export function recallTerms(text: string): string[] {
  const terms: string[] = []
  for (const compound of text.match(COMPOUND) ?? []) {
    if (compound.length > MAX_TERM_CHARS * 2) continue
    const parts = compound.split(JOINTS).filter((part) => part !== '')
    if (parts.length > 1) {
      const whole = compound.toLowerCase().replace(/’/g, "'")
      // A possessive or contraction ("user's", "don't") is a word, not a code name.
      if (!/^[\p{L}]+'[\p{L}]{1,2}$/u.test(whole) && whole.length <= MAX_TERM_CHARS)
        terms.push(whole)
    }
    for (const part of parts) {
      const lower = part.toLowerCase()
      if (STOP_WORDS.has(lower) || lower.length > MAX_TERM_CHARS) continue
      // One letter says nothing on its own ("a" of "a/b"), one digit does ("gqc.4").
      if (lower.length === 1 && !/\d/.test(lower)) continue
      terms.push(stem(lower))
    }
  }
  return terms
}

/** The distinct terms of a query, in order. */
export function queryTerms(text: string): string[] {
  return [...new Set(recallTerms(text))]
}
