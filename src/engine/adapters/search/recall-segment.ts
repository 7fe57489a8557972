/**
 * One immutable segment of a recall index, laid out so a query reads only what it needs: a small
 * header (where each region starts, and the first term of each block of the term dictionary),
 * then fixed-width regions (document lengths, kinds, offsets), the postings of every term side by
 * side, the documents as JSON lines, their ids, and the dictionary. A query reads the header, the
 * lengths, the dictionary blocks and postings of its own terms and the documents it returns;
 * nothing else. Whole-index libraries (MiniSearch, Orama) parse every posting at load instead:
 * 0.9 s and 1 GB for a 200,000-line creature (docs/design/recall.md), which no per-process query
 * can pay.
 *
 * Layout (little-endian): "SRS2", header length (u32), header JSON, then the regions the header
 * names by [offset, bytes]: lengths (f32 per doc), kinds (u8 per doc), docOffsets (u32 per doc + 1,
 * into docs), postings (u32 pairs: doc, weight x 10), docs (UTF-8 JSON lines), ids (JSON array),
 * and the term dictionary in two levels (segment-dictionary.ts): terms (blocks of sorted terms)
 * and stats (u32 pairs per term: first posting pair, pairs); the header holds each block's first
 * term, so a query reads the blocks of its own terms only.
 */
import type { RecallEntry } from '../../core/recall/recall-entry.ts'
import { recallTerms } from '../../core/recall/recall-terms.ts'
import {
  type DictionaryIndex,
  openDictionary,
  type TermPostings,
  writeDictionary,
} from './segment-dictionary.ts'

const MAGIC = 'SRS2'
/** A context word (title, heading) counts this much of a word of the text. */
export const CONTEXT_WEIGHT = 0.4

type Region = [offset: number, bytes: number]

/** A segment's header: its counts and kinds, the dictionary's block index, where each region is. */
export interface Header {
  count: number
  totalLength: number
  kinds: string[]
  /** The index of the dictionary's blocks (the terms and their postings are regions). */
  dictionary: DictionaryIndex
  regions: Record<RegionName, Region>
}

/** The regions of a segment, in the order they are laid out. */
const REGION_NAMES = [
  'lengths',
  'kinds',
  'docOffsets',
  'postings',
  'docs',
  'ids',
  'terms',
  'stats',
] as const
type RegionName = (typeof REGION_NAMES)[number]

/** Where a segment's bytes are: a buffer built in memory, or a file read piece by piece. */
export interface ByteSource {
  readonly size: number
  read(offset: number, bytes: number): Buffer
}

/** A buffer as a byte source. */
export function bufferSource(buffer: Buffer): ByteSource {
  return { size: buffer.length, read: (offset, bytes) => buffer.subarray(offset, offset + bytes) }
}

/** A document as stored: the entry packed in an array. */
type Packed = [string, string, string, string, string, string | null, readonly string[]]

/** The weighted term counts of an entry and its length in text terms. */
export function entryTerms(entry: RecallEntry): { weights: Map<string, number>; length: number } {
  const weights = new Map<string, number>()
  const text = recallTerms(entry.text)
  for (const term of text) weights.set(term, (weights.get(term) ?? 0) + 1)
  for (const term of recallTerms(entry.context ?? ''))
    weights.set(term, (weights.get(term) ?? 0) + CONTEXT_WEIGHT)
  return { weights, length: Math.max(1, text.length) }
}

/**
 * A segment in the making: entries are added one at a time and held as what the segment needs
 * (postings, lengths, packed JSON lines), never as an object per document: the terms of a
 * document are a map only while it is added, so a build's garbage dies young. Holding 20,000
 * documents as objects (a map of terms each) until a flush made a 200,000-line creature's first
 * build promote most of what it indexed, and V8 grew the heap past 200 MB to collect it.
 */
export interface SegmentBuilder {
  /** Live documents held. */
  readonly size: number
  /** Adds `entry` as the next document (its id must not be held: remove it first). */
  add(entry: RecallEntry): void
  /** Drops the document `id`; true when it was held here. */
  remove(id: string): boolean
  /** The ids of the live documents, in the order `bytes` writes them. */
  ids(): string[]
  /** The bytes of a segment of the live documents, in the order added (document n is index n). */
  bytes(): Buffer
}

/** An empty segment builder. */
export function createSegmentBuilder(): SegmentBuilder {
  const ids: string[] = []
  const kindOf: string[] = []
  const lengthOf: number[] = []
  const jsons: Buffer[] = []
  const positions = new Map<string, number>()
  const dead = new Set<number>()
  const postings = new Map<string, number[]>()
  return {
    get size() {
      return ids.length - dead.size
    },
    add(entry) {
      const index = ids.length
      const packed: Packed = [
        entry.id,
        entry.kind,
        entry.location,
        entry.text,
        entry.context ?? '',
        entry.date,
        entry.sources,
      ]
      const { weights, length } = entryTerms(entry)
      ids.push(entry.id)
      kindOf.push(entry.kind)
      lengthOf.push(length)
      jsons.push(Buffer.from(JSON.stringify(packed)))
      positions.set(entry.id, index)
      for (const [term, weight] of weights) {
        let list = postings.get(term)
        if (list === undefined) {
          list = []
          postings.set(term, list)
        }
        list.push(index, Math.max(1, Math.round(weight * 10)))
      }
    },
    remove(id) {
      const index = positions.get(id)
      if (index === undefined) return false
      positions.delete(id)
      dead.add(index)
      return true
    },
    ids: () => ids.filter((_, index) => !dead.has(index)),
    bytes() {
      // Live documents renumbered in order; a dead one leaves no trace (as if never added).
      const renumber = new Int32Array(ids.length).fill(-1)
      let count = 0
      for (let index = 0; index < ids.length; index += 1) {
        if (dead.has(index)) continue
        renumber[index] = count
        count += 1
      }
      const kinds: string[] = []
      const kindIndex = new Map<string, number>()
      const lengths = Buffer.alloc(count * 4)
      const kindBytes = Buffer.alloc(count)
      const docOffsets = Buffer.alloc((count + 1) * 4)
      const docParts: Buffer[] = []
      const liveIds: string[] = []
      let totalLength = 0
      let docBytes = 0
      for (let index = 0; index < ids.length; index += 1) {
        const at = renumber[index] as number
        if (at < 0) continue
        const kind = kindOf[index] as string
        if (!kindIndex.has(kind)) {
          kindIndex.set(kind, kinds.length)
          kinds.push(kind)
        }
        const length = lengthOf[index] as number
        totalLength += length
        lengths.writeFloatLE(length, at * 4)
        kindBytes[at] = kindIndex.get(kind) ?? 0
        docOffsets.writeUInt32LE(docBytes, at * 4)
        const json = jsons[index] as Buffer
        docParts.push(json, NEWLINE)
        docBytes += json.length + 1
        liveIds.push(ids[index] as string)
      }
      docOffsets.writeUInt32LE(docBytes, count * 4)
      const terms: string[] = []
      const dict: TermPostings[] = []
      const lists: number[][] = []
      let pairs = 0
      for (const term of [...postings.keys()].sort()) {
        const all = postings.get(term) ?? []
        const list = dead.size === 0 ? all : livePairs(all, renumber)
        if (list.length === 0) continue
        terms.push(term)
        lists.push(list)
        dict.push([pairs, list.length / 2])
        pairs += list.length / 2
      }
      const postingBytes = Buffer.alloc(pairs * 8)
      let at = 0
      for (const list of lists) {
        for (const value of list) {
          postingBytes.writeUInt32LE(value, at)
          at += 4
        }
      }
      return assemble({ count, totalLength, kinds }, terms, dict, [
        lengths,
        kindBytes,
        docOffsets,
        postingBytes,
        Buffer.concat(docParts),
        Buffer.from(JSON.stringify(liveIds)),
      ])
    },
  }
}

/** The (document, weight) pairs of `pairs` whose document is live, renumbered. */
function livePairs(pairs: readonly number[], renumber: Int32Array): number[] {
  const kept: number[] = []
  for (let at = 0; at < pairs.length; at += 2) {
    const index = renumber[pairs[at] as number] as number
    if (index >= 0) kept.push(index, pairs[at + 1] as number)
  }
  return kept
}

/**
 * The segment's bytes: magic, header (with its regions' offsets) and the regions in order, the
 * dictionary of `terms` (sorted) and their postings last.
 */
export function assemble(
  fields: Omit<Header, 'regions' | 'dictionary'>,
  terms: readonly string[],
  postings: readonly TermPostings[],
  documentParts: Buffer[],
): Buffer {
  const dictionary = writeDictionary(terms, postings)
  const body = [...documentParts, dictionary.termBytes, dictionary.stats]
  // Region offsets depend on the header's own length: fixed in passes until it stops changing.
  const build = (start: number) => {
    const regions = {} as Header['regions']
    let offset = start
    body.forEach((part, index) => {
      regions[REGION_NAMES[index] as RegionName] = [offset, part.length]
      offset += part.length
    })
    return Buffer.from(JSON.stringify({ ...fields, dictionary: dictionary.index, regions }))
  }
  let header = build(0)
  for (;;) {
    const next = build(8 + header.length)
    if (next.length === header.length) {
      header = next
      break
    }
    header = next
  }
  const prefix = Buffer.alloc(8)
  prefix.write(MAGIC, 0, 'latin1')
  prefix.writeUInt32LE(header.length, 4)
  return Buffer.concat([prefix, header, ...body])
}

const NEWLINE = Buffer.from('\n')

/** A segment opened for reading: its header parsed, everything else read on demand. */
export interface SegmentReader {
  readonly count: number
  readonly totalLength: number
  /** Documents holding `term` (0 when none). */
  documentFrequency(term: string): number
  /**
   * Adds each document's BM25 share of `term` to `scores`, given the index-wide statistics, and
   * appends to `touched` each document scored for the first time (so callers visit only those).
   * With `onlyReached`, only documents already scored get the term's share (a term too common to
   * lift an unreached document into the results: see the search's pruning).
   */
  score(
    term: string,
    idf: number,
    average: number,
    scores: Float64Array,
    touched: Touched,
    onlyReached?: boolean,
  ): void
  /** The kind of document `index`. */
  kindOf(index: number): string
  /** Document `index` as an entry. */
  entry(index: number): RecallEntry
  /** Every document's id, in order. */
  ids(): string[]
  /** The header and regions, for merging segments without decoding their documents. */
  raw(): RawSegment
}

/**
 * The documents a query's postings reached in one segment, in the order reached: a typed array as
 * long as the segment and a count (a growing array of numbers was most of the hook's garbage).
 */
export interface Touched {
  indexes: Int32Array
  count: number
}

/** A segment's parts as a merge reads them. */
export interface RawSegment {
  header: Header
  region(name: RegionName): Buffer
  /** Every term with its postings, in order. */
  dictionary(): [string, TermPostings][]
}

/** BM25's k1: a term's share of a score tends to IDF x (k1 + 1) as its count grows. */
export const K1 = 1.2
const B = 0.75

/** True on a little-endian machine, where a segment's numbers can be viewed in place. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/**
 * The little-endian u32s of `bytes` as an array: a view when they are aligned (a file read
 * gives its own buffer), else a copy. Reading them one by one through `readUInt32LE` cost a
 * cold process (every hook) about twice as much.
 */
function wordsOf(bytes: Buffer): Uint32Array {
  const count = bytes.length >> 2
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
    return new Uint32Array(bytes.buffer, bytes.byteOffset, count)
  const words = new Uint32Array(count)
  for (let index = 0; index < count; index += 1) words[index] = bytes.readUInt32LE(index * 4)
  return words
}

/** The little-endian f32s of `bytes` as an array (a view when aligned, as `wordsOf`). */
function floatsOf(bytes: Buffer): Float32Array {
  const count = bytes.length >> 2
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, count)
  const floats = new Float32Array(count)
  for (let index = 0; index < count; index += 1) floats[index] = bytes.readFloatLE(index * 4)
  return floats
}

/** Opens the segment in `source`; throws when it is not one. */
export function openSegment(source: ByteSource): SegmentReader {
  const prefix = source.read(0, 8)
  if (prefix.length < 8 || prefix.toString('latin1', 0, 4) !== MAGIC)
    throw new Error('not a recall segment')
  const header = JSON.parse(source.read(8, prefix.readUInt32LE(4)).toString('utf8')) as Header
  if (typeof header.dictionary !== 'object' || header.regions?.terms === undefined)
    throw new Error('not a recall segment of this format')
  const region = (name: RegionName) => source.read(...header.regions[name])
  const [termsStart, termBytes] = header.regions.terms
  const [statsStart] = header.regions.stats
  const dictionary = openDictionary(
    header.dictionary,
    termBytes,
    (offset, bytes) => source.read(termsStart + offset, bytes),
    (offset, bytes) => source.read(statsStart + offset, bytes),
  )
  let lengths: Float32Array | null = null
  let kinds: Buffer | null = null
  let offsets: Buffer | null = null
  const find = (term: string) => dictionary.find(term)
  const docJson = (index: number) => {
    offsets ??= region('docOffsets')
    const start = offsets.readUInt32LE(index * 4)
    const end = offsets.readUInt32LE(index * 4 + 4)
    const [docsStart] = header.regions.docs
    return source.read(docsStart + start, end - start - 1)
  }
  return {
    count: header.count,
    totalLength: header.totalLength,
    documentFrequency: (term) => find(term)?.[1] ?? 0,
    score(term, idf, average, scores, touched, onlyReached = false) {
      const found = find(term)
      if (found === null) return
      lengths ??= floatsOf(region('lengths'))
      const [postingsStart] = header.regions.postings
      const pairs = wordsOf(source.read(postingsStart + found[0] * 8, found[1] * 8))
      const mean = average || 1
      // The same values as K1 + 1 and 1 - B, made once: before the loop is optimized, each
      // operation on doubles boxes its result, and these two were made again per posting.
      const k1Plus1 = K1 + 1
      const oneMinusB = 1 - B
      for (let at = 0; at < pairs.length; at += 2) {
        const index = pairs[at] as number
        const before = scores[index] as number
        if (before === 0) {
          // A zero reads as a small integer (no boxed double): skipping is cheap.
          if (onlyReached) continue
          touched.indexes[touched.count] = index
          touched.count += 1
        }
        const weight = (pairs[at + 1] as number) / 10
        scores[index] =
          before +
          (idf * weight * k1Plus1) /
            (weight + K1 * (oneMinusB + (B * (lengths[index] as number)) / mean))
      }
    },
    kindOf(index) {
      kinds ??= region('kinds')
      return header.kinds[kinds[index] ?? 0] ?? ''
    },
    entry(index) {
      const [id, kind, location, text, context, date, sources] = JSON.parse(
        docJson(index).toString('utf8'),
      ) as Packed
      return { id, kind, location, text, context, date, sources }
    },
    ids: () => JSON.parse(region('ids').toString('utf8')) as string[],
    raw: () => ({ header, region, dictionary: () => dictionary.all() }),
  }
}
