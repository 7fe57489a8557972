/** The one token counter behind every "tokens" figure Somnus reports. */
import { countTokens as countBpeTokens } from 'gpt-tokenizer/encoding/o200k_base'

/**
 * Counts tokens with the o200k BPE vocabulary: not Claude's own tokenizer (which is not public),
 * but a real, fixed BPE, so "tokens saved" is a measurement rather than a chars/4 guess.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0
  // Special-token text (`<|endoftext|>`) keeps the library's own handling.
  if (text.includes('<|')) return countBpeTokens(text)
  let tokens = 0
  for (const [piece] of text.matchAll(O200K_PIECES)) {
    let count = PIECE_TOKENS.get(piece)
    if (count === undefined) {
      count = countBpeTokens(piece)
      if (PIECE_TOKENS.size >= MAX_CACHED_PIECES) PIECE_TOKENS.clear()
      PIECE_TOKENS.set(piece, count)
    }
    tokens += count
  }
  return tokens
}

const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?"
/**
 * o200k's pre-tokenizer (gpt-tokenizer's O200K_TOKEN_SPLIT_PATTERN, as tiktoken has it): BPE
 * never merges across these pieces, so a text's count is the sum of its pieces' counts.
 * `tokens.test.ts` checks the sum against the library on any text.
 */
const O200K_PIECES = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
)

/**
 * Tokens per piece: a text's pieces are mostly words it has used before, and a small table
 * answers faster than BPE's 200,000-entry one. Cleared when full, so memory stays bounded.
 */
const PIECE_TOKENS = new Map<string, number>()
const MAX_CACHED_PIECES = 100_000
