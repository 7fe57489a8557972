/** The one token counter behind every "tokens" figure Somnus reports. */
import { countTokens as countBpeTokens, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base'

// The library's own cache of pieces is an LRU on a Map that deletes its oldest key on every
// miss once full; V8 then skips ever more deleted slots to find the oldest, and text with few
// repeats (base64: 1 KB at 0.8 s per MB, 4 MB at 6 s per MB) grows superlinear. PIECE_TOKENS
// below replaces it.
setMergeCacheSize(0)

/**
 * Counts tokens with the o200k BPE vocabulary: not Claude's own tokenizer (which is not public),
 * but a real, fixed BPE, so "tokens saved" is a measurement rather than a chars/4 guess.
 *
 * Equal to gpt-tokenizer's count whenever no pre-tokenizer piece is longer than
 * MAX_PIECE_LENGTH (every text with spaces between its words, and all of the real transcripts);
 * a longer piece (a run with no spaces: one letter repeated, a minified blob) is counted in
 * slices, so the cost stays linear in the text where the library's BPE is quadratic in a piece.
 * Special-token text such as `<|endoftext|>` is counted as the ordinary text it is (tiktoken's
 * `encode_ordinary`), where the library's default throws: transcripts about models quote them.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0
  let tokens = 0
  for (const [piece] of text.matchAll(O200K_PIECES)) {
    tokens += piece.length > MAX_PIECE_LENGTH ? longPieceTokens(piece) : pieceTokens(piece)
  }
  return tokens
}

/**
 * The longest piece handed to BPE whole. gpt-tokenizer's merge loop rescans the piece on every
 * merge (40,000 letters: 2.4 s), so its cost per character grows with the piece; at 256 it is
 * within a third of a short word's. The longest piece in the real transcripts and conversations
 * is 164 characters (a markdown table rule).
 */
export const MAX_PIECE_LENGTH = 256

/**
 * A long run's count: the sum of its slices' counts, each slice at most MAX_PIECE_LENGTH and
 * never cutting a surrogate pair (half a pair would be encoded as U+FFFD, different bytes).
 * BPE cannot merge across a cut, so the count may differ from the whole piece's by about a
 * token per cut (1% on a run of mixed punctuation, nothing on a run of one letter).
 */
function longPieceTokens(piece: string): number {
  let tokens = 0
  for (let start = 0; start < piece.length; ) {
    let end = Math.min(start + MAX_PIECE_LENGTH, piece.length)
    if (end < piece.length && isLowSurrogate(piece.charCodeAt(end))) end -= 1
    tokens += pieceTokens(piece.slice(start, end))
    start = end
  }
  return tokens
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** One piece's count (at most MAX_PIECE_LENGTH characters), from the table when it is known. */
function pieceTokens(piece: string): number {
  let count = PIECE_TOKENS.get(piece)
  if (count === undefined) {
    count = countBpeTokens(piece)
    if (PIECE_TOKENS.size >= MAX_CACHED_PIECES || cachedCharacters >= MAX_CACHED_CHARACTERS) {
      PIECE_TOKENS.clear()
      cachedCharacters = 0
    }
    PIECE_TOKENS.set(piece, count)
    cachedCharacters += piece.length
  }
  return count
}

const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?"
/**
 * o200k's pre-tokenizer (gpt-tokenizer's O200K_TOKEN_SPLIT_PATTERN, as tiktoken has it): BPE
 * never merges across these pieces, so a text's count is the sum of its pieces' counts.
 * `tokens.test.ts` checks the sum against the library on any text. No piece holds a whole
 * special token (each mixes punctuation and letters), so the library never throws on one.
 */
const O200K_PIECES = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
)

/**
 * Tokens per piece: a text's pieces are mostly words it has used before (and a long run's
 * slices the same slice), and a small table answers faster than BPE. Cleared when full, not
 * trimmed (see setMergeCacheSize above), so memory stays bounded: a few MB.
 */
const PIECE_TOKENS = new Map<string, number>()
const MAX_CACHED_PIECES = 100_000
const MAX_CACHED_CHARACTERS = 1_000_000
let cachedCharacters = 0
