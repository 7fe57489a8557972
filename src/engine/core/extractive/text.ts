/** Words, stems and sentences: the text primitives every extractive feature is built on. */
import { stemmer } from 'stemmer'
import { STOP_WORDS } from './stop-words.ts'

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu
/**
 * Made on first use: building a segmenter loads ICU's break rules, ~5-9 ms that every hook start
 * paid at module load though most hooks never split a sentence (profile of the prompt hook).
 */
let sentences: Intl.Segmenter | undefined
const sentenceSegmenter = () => {
  sentences ??= new Intl.Segmenter('en', { granularity: 'sentence' })
  return sentences
}

/** The words of `text` as written (letters and digits, inner apostrophes kept). */
export function words(text: string): string[] {
  return text.match(WORD) ?? []
}

/** The lowercase form used for matching: curly apostrophes straightened, possessive `'s` dropped. */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase()
  // Most words have no apostrophe: skip the two replacements for them.
  if (!lower.includes("'") && !lower.includes('’')) return lower
  return lower.replace(/’/g, "'").replace(/'s$/, '')
}

/** True for a function word that carries no content. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(normalizeWord(word))
}

/** Porter stem of a content word (lowercased; digits are returned as they are). */
export function stem(word: string): string {
  return stemNormal(normalizeWord(word))
}

/** Stems by normalized word: a text's vocabulary is small next to its word count, and Porter is costly. */
const STEMS = new Map<string, string>()
/** Enough for a large vocabulary; past it the cache starts over, so memory stays bounded. */
const MAX_CACHED_STEMS = 100_000

/** `stem` of a word already passed through `normalizeWord`. */
function stemNormal(normal: string): string {
  const known = STEMS.get(normal)
  if (known !== undefined) return known
  const bare = normal.includes("'") ? normal.replace(/'/g, '') : normal
  const stemmed = /^\d/.test(bare) ? bare : stemmer(bare)
  if (STEMS.size >= MAX_CACHED_STEMS) STEMS.clear()
  STEMS.set(normal, stemmed)
  return stemmed
}

/** The stems of the content words of `text`, in order, stop words removed. */
export function contentStems(text: string): string[] {
  const stems: string[] = []
  for (const word of words(text)) {
    const normal = normalizeWord(word)
    if (STOP_WORDS.has(normal)) continue
    const stemmed = stemNormal(normal)
    if (stemmed.length > 0) stems.push(stemmed)
  }
  return stems
}

/** Abbreviations whose period ICU's sentence rules take for a sentence end. */
const ABBREVIATION_END = /\b(?:dr|mr|mrs|ms|prof|st|jr|sr|vs|etc|e\.g|i\.e|no|approx|fig)\.$/i

/** An ASCII line with no sentence terminator: one sentence, whatever the segmenter would say. */
const NO_ASCII_TERMINATOR = /^[^.!?\r\u0080-\uffff]*$/

/**
 * Splits text into sentences with the built-in `Intl.Segmenter` (Unicode sentence boundaries),
 * then also at line breaks, since transcripts and notes put one statement per line. A segment
 * that ends in a title or abbreviation ("Dr.", "e.g.") is joined to the next.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  for (const line of text.split(/\r?\n/)) {
    // Unicode ends a sentence only at a terminator; in ASCII those are . ! ? alone.
    if (NO_ASCII_TERMINATOR.test(line)) {
      const trimmed = line.trim()
      if (trimmed.length > 0) sentences.push(trimmed)
      continue
    }
    // Sentences are cut from the line, not built from the segments: a segment is a fresh two-byte
    // copy, a slice of the line shares its characters (a 10 MB input holds 9 M chars of sentences).
    let pendingStart = 0
    for (const end of segmentEnds(line)) {
      const trimmed = line.slice(pendingStart, end).trim()
      if (ABBREVIATION_END.test(trimmed)) continue
      if (trimmed.length > 0) sentences.push(trimmed)
      pendingStart = end
    }
    const rest = line.slice(pendingStart).trim()
    if (rest.length > 0) sentences.push(rest)
  }
  return sentences
}

/** Longest text given to the segmenter at once. */
const SEGMENT_WINDOW = 16_384

/**
 * Where the segmenter's sentences of `line` end. V8's Intl.Segmenter takes longer per step the
 * longer its string (a 490,000-character line: 2.8 s, four times that: 40 s), so a long line is
 * segmented a window at a time; each window's last segment may run on past it and is segmented
 * again with the next, unless it is the window's only one (a "sentence" longer than the window is
 * cut at the window's last space). Lines up to the window are segmented whole, as before.
 */
function segmentEnds(line: string): number[] {
  const ends: number[] = []
  for (let start = 0; start < line.length; ) {
    const window = line.slice(start, start + SEGMENT_WINDOW)
    const found: number[] = []
    for (const { segment, index } of sentenceSegmenter().segment(window)) {
      found.push(start + index + segment.length)
    }
    if (start + window.length < line.length) {
      if (found.length > 1) found.pop()
      else found[0] = start + lastSpaceEnd(window)
    }
    ends.push(...found)
    start = found[found.length - 1] ?? line.length
  }
  return ends
}

/** Where a cut of `window` falls: after its last white space, else at its end (one long word). */
function lastSpaceEnd(window: string): number {
  const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\t'))
  return space > 0 ? space + 1 : window.length
}

/** Shortens `text` to at most `maxChars` characters at a word boundary, adding `…` when cut. */
export function shorten(text: string, maxChars: number): string {
  // Only the head can show: a megabyte of text is not flattened to keep its first 100 characters.
  const head = text.length > 4 * maxChars + 64 ? text.slice(0, 4 * maxChars + 64) : text
  const flatHead = head.replace(/\s+/g, ' ').trim()
  const flat =
    head === text || flatHead.length <= maxChars ? text.replace(/\s+/g, ' ').trim() : flatHead
  if (flat.length <= maxChars) return flat
  const cut = flat.slice(0, Math.max(1, maxChars - 1))
  const space = cut.lastIndexOf(' ')
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`
}
