/**
 * Merging segments: the live documents of several segments become one, at the level of bytes and
 * postings (recall-segment.ts has the layout).
 */
import { assemble, type SegmentReader } from './recall-segment.ts'
import type { TermPostings } from './segment-dictionary.ts'

/**
 * One segment of the live documents of `parts`, merged at the level of postings: documents are
 * renumbered and copied as bytes, postings concatenated term by term; nothing is decoded into
 * objects, so merging 200,000 documents costs their bytes, not a map per document.
 */
export function mergeSegments(
  parts: readonly { reader: SegmentReader; dead: ReadonlySet<number> }[],
): Buffer {
  const raws = parts.map((part) => part.reader.raw())
  const kinds: string[] = []
  const kindIndex = new Map<string, number>()
  const renumber: Int32Array[] = []
  let count = 0
  let totalLength = 0
  const lengthParts: Buffer[] = []
  const kindParts: number[] = []
  const docParts: Buffer[] = []
  const offsets: number[] = []
  const ids: string[] = []
  let docBytes = 0
  raws.forEach((raw, position) => {
    const dead = parts[position]?.dead ?? new Set<number>()
    const map = new Int32Array(raw.header.count).fill(-1)
    const lengths = raw.region('lengths')
    const kindBytes = raw.region('kinds')
    const docOffsets = raw.region('docOffsets')
    const docs = raw.region('docs')
    const segmentIds = JSON.parse(raw.region('ids').toString('utf8')) as string[]
    for (let index = 0; index < raw.header.count; index += 1) {
      if (dead.has(index)) continue
      map[index] = count
      count += 1
      const length = lengths.readFloatLE(index * 4)
      totalLength += length
      const piece = Buffer.alloc(4)
      piece.writeFloatLE(length, 0)
      lengthParts.push(piece)
      const kind = raw.header.kinds[kindBytes[index] ?? 0] ?? ''
      if (!kindIndex.has(kind)) {
        kindIndex.set(kind, kinds.length)
        kinds.push(kind)
      }
      kindParts.push(kindIndex.get(kind) ?? 0)
      const start = docOffsets.readUInt32LE(index * 4)
      const end = docOffsets.readUInt32LE(index * 4 + 4)
      offsets.push(docBytes)
      docParts.push(docs.subarray(start, end))
      docBytes += end - start
      ids.push(segmentIds[index] ?? '')
    }
    renumber.push(map)
  })
  offsets.push(docBytes)
  const dictionaries = raws.map((raw) => raw.dictionary())
  const terms = [...new Set(dictionaries.flatMap((entries) => entries.map((entry) => entry[0])))]
  terms.sort()
  const byTerm = dictionaries.map((entries) => new Map(entries))
  const postingsOf = raws.map((raw) => raw.region('postings'))
  const kept: string[] = []
  const dict: TermPostings[] = []
  const postingParts: Buffer[] = []
  let pairs = 0
  for (const term of terms) {
    let termPairs = 0
    raws.forEach((_, position) => {
      const found = byTerm[position]?.get(term)
      const map = renumber[position]
      const postings = postingsOf[position]
      if (!found || !map || !postings) return
      const out = Buffer.alloc(found[1] * 8)
      let written = 0
      for (let pair = found[0]; pair < found[0] + found[1]; pair += 1) {
        const index = map[postings.readUInt32LE(pair * 8)] ?? -1
        if (index < 0) continue
        out.writeUInt32LE(index, written)
        out.writeUInt32LE(postings.readUInt32LE(pair * 8 + 4), written + 4)
        written += 8
      }
      postingParts.push(out.subarray(0, written))
      termPairs += written / 8
    })
    if (termPairs > 0) {
      kept.push(term)
      dict.push([pairs, termPairs])
    }
    pairs += termPairs
  }
  const docOffsets = Buffer.alloc(offsets.length * 4)
  offsets.forEach((offset, index) => {
    docOffsets.writeUInt32LE(offset, index * 4)
  })
  return assemble({ count, totalLength, kinds }, kept, dict, [
    Buffer.concat(lengthParts),
    Buffer.from(kindParts),
    docOffsets,
    Buffer.concat(postingParts),
    Buffer.concat(docParts),
    Buffer.from(JSON.stringify(ids)),
  ])
}
