/** The one token counter behind every "tokens" figure Somnus reports. */
import { countTokens as countBpeTokens } from 'gpt-tokenizer/encoding/o200k_base'

/**
 * Counts tokens with the o200k BPE vocabulary: not Claude's own tokenizer (which is not public),
 * but a real, fixed BPE, so "tokens saved" is a measurement rather than a chars/4 guess.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0
  const known = RECENT.get(text)
  if (known !== undefined) return known
  const tokens = countBpeTokens(text)
  if (RECENT.size >= RECENT_SIZE) RECENT.clear()
  RECENT.set(text, tokens)
  return tokens
}

/**
 * The last few counts: a summary is counted by the summarizer and then again by whoever stores
 * it, and BPE costs far more than looking a string up.
 */
const RECENT = new Map<string, number>()
const RECENT_SIZE = 8
