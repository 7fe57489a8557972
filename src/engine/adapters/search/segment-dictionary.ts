/**
 * A segment's term dictionary in two levels, so a query reads the few blocks that hold its terms,
 * not the whole dictionary: the terms, sorted, in blocks of BLOCK_TERMS (UTF-8, one per line), the
 * postings of each term as two u32s (first pair, pairs), and in the segment's header only the
 * first term and the byte offset of each block. A segment of 20,000 lines holds ~30,000 terms:
 * parsing them all as JSON at every open was most of what opening it cost (the prompt hook opens
 * every segment of the brain's shelf for one query).
 */

/** Terms per block: a block read is ~1 KB, the index of blocks 1/64th of the terms. */
const BLOCK_TERMS = 64

/** A term's postings: where its pairs start in the postings region, and how many. */
export type TermPostings = [firstPair: number, pairs: number]

/** The header's index of blocks: each block's first term and byte offset in the terms region. */
export interface DictionaryIndex {
  /** How many terms the dictionary holds. */
  terms: number
  /** [first term, byte offset] of each block, in order; the terms region's length ends the last. */
  blocks: [string, number][]
}

/** The dictionary of `terms` (sorted, distinct, no line breaks): its index and its two regions. */
export function writeDictionary(
  terms: readonly string[],
  postings: readonly TermPostings[],
): { index: DictionaryIndex; termBytes: Buffer; stats: Buffer } {
  const blocks: [string, number][] = []
  const pieces: Buffer[] = []
  let offset = 0
  for (let start = 0; start < terms.length; start += BLOCK_TERMS) {
    const block = terms.slice(start, start + BLOCK_TERMS)
    blocks.push([block[0] ?? '', offset])
    const bytes = Buffer.from(`${block.join('\n')}\n`)
    pieces.push(bytes)
    offset += bytes.length
  }
  const stats = Buffer.alloc(terms.length * 8)
  postings.forEach(([first, pairs], index) => {
    stats.writeUInt32LE(first, index * 8)
    stats.writeUInt32LE(pairs, index * 8 + 4)
  })
  return { index: { terms: terms.length, blocks }, termBytes: Buffer.concat(pieces), stats }
}

/** A dictionary opened for lookups: blocks read and split when first needed, then kept. */
export interface DictionaryReader {
  /** The postings of `term`, or null when the segment does not hold it. */
  find(term: string): TermPostings | null
  /** Every term with its postings, in order (what a merge reads). */
  all(): [string, TermPostings][]
}

/**
 * The dictionary `index` describes, reading its terms region with `readTerms(offset, bytes)` and
 * its stats with `readStats(offset, bytes)` (offsets within each region).
 */
export function openDictionary(
  index: DictionaryIndex,
  termBytes: number,
  readTerms: (offset: number, bytes: number) => Buffer,
  readStats: (offset: number, bytes: number) => Buffer,
): DictionaryReader {
  const blocks = new Map<number, string[]>()
  const blockAt = (position: number): string[] => {
    let terms = blocks.get(position)
    if (terms === undefined) {
      const start = index.blocks[position]?.[1] ?? 0
      const end = index.blocks[position + 1]?.[1] ?? termBytes
      // The block ends with a line break: the last item of the split is empty.
      terms = readTerms(start, end - start)
        .toString('utf8')
        .split('\n')
        .slice(0, -1)
      blocks.set(position, terms)
    }
    return terms
  }
  const postingsOf = (term: number): TermPostings => {
    const bytes = readStats(term * 8, 8)
    return [bytes.readUInt32LE(0), bytes.readUInt32LE(4)]
  }
  return {
    find(term) {
      // The last block whose first term is at or before `term`.
      let low = 0
      let high = index.blocks.length - 1
      let found = -1
      while (low <= high) {
        const middle = (low + high) >> 1
        if ((index.blocks[middle]?.[0] ?? '') <= term) {
          found = middle
          low = middle + 1
        } else high = middle - 1
      }
      if (found < 0) return null
      const terms = blockAt(found)
      low = 0
      high = terms.length - 1
      while (low <= high) {
        const middle = (low + high) >> 1
        const at = terms[middle] as string
        if (at === term) return postingsOf(found * BLOCK_TERMS + middle)
        if (at < term) low = middle + 1
        else high = middle - 1
      }
      return null
    },
    all() {
      const stats = readStats(0, index.terms * 8)
      const terms = readTerms(0, termBytes).toString('utf8').split('\n').slice(0, -1)
      return terms.map((term, position) => [
        term,
        [stats.readUInt32LE(position * 8), stats.readUInt32LE(position * 8 + 4)],
      ])
    },
  }
}
