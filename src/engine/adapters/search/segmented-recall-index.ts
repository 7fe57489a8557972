/**
 * A recall index made of immutable segments (recall-segment.ts), as a log-structured index is:
 * new entries collect in memory and become a new segment when asked for or saved; a removed or
 * replaced entry is only marked dead in its segment; small segments are merged into one, and a
 * segment with many dead documents is rewritten. Ranking is BM25 over the statistics of every
 * segment together, so a hit scores the same whichever segment holds it.
 */
import { queryTerms } from '../../core/recall/recall-terms.ts'
import { snippetOf } from '../../core/recall/snippet.ts'
import {
  DEFAULT_SNIPPET_CHARS,
  isOnOrAfter,
  type RecallEntry,
  type RecallHit,
  type RecallIndex,
} from '../../ports/recall.ts'
import { mergeSegments } from './merge-segments.ts'
import {
  bufferSource,
  createSegmentBuilder,
  K1,
  openSegment,
  type SegmentReader,
  type Touched,
} from './recall-segment.ts'

/** A segment of the index, and which of its documents are dead. */
export interface Segment {
  /** Where it is kept (a file name), or null while it exists only in memory. */
  name: string | null
  reader: SegmentReader
  /** The bytes of a segment built in this process, until they are written. */
  bytes: Buffer | null
  dead: Set<number>
}

/** Entries put are written into a segment once this many wait (a map of terms each, until then). */
const FLUSH_DOCUMENTS = 20_000
/** More small segments than this are merged into one. */
const MAX_SEGMENTS = 4
/**
 * A segment this large (live documents) is never merged with others, only rewritten when many of
 * its documents are dead: merging costs the merged bytes in memory, so a 200,000-line creature
 * keeps ten segments of 20,000 rather than paying for one of 200,000 at every merge.
 */
const LARGE_SEGMENT = FLUSH_DOCUMENTS / 2
/** A segment with this share of dead documents is rewritten without them. */
const MAX_DEAD_SHARE = 0.3

/** A segmented index over `segments` (none: empty). */
export function createSegmentedRecallIndex(segments: Segment[] = []) {
  let pending = createSegmentBuilder()
  // Which segment holds each live id: the segment itself, not an object per id (a first build of
  // 200,000 lines kept 200,000 of those, ~8 MB that every full collection walked). Where in the
  // segment is looked up only when an id is removed, from that segment's ids.
  let locations: Map<string, Segment> | null = null
  const positions = new WeakMap<Segment, Map<string, number>>()

  /** Where each id lives: read from the segments' id lists at the first change. */
  const locate = () => {
    if (locations !== null) return locations
    locations = new Map()
    for (const segment of segments) {
      segment.reader.ids().forEach((id, index) => {
        if (!segment.dead.has(index)) locations?.set(id, segment)
      })
    }
    return locations
  }
  /** The index of the live document `id` in `segment`. */
  const positionIn = (segment: Segment, id: string): number | undefined => {
    let known = positions.get(segment)
    if (known === undefined) {
      known = new Map()
      for (const [index, each] of segment.reader.ids().entries())
        if (!segment.dead.has(index)) known.set(each, index)
      positions.set(segment, known)
    }
    return known.get(id)
  }
  const removeOne = (id: string) => {
    pending.remove(id)
    const segment = locate().get(id)
    if (segment === undefined) return
    const index = positionIn(segment, id)
    if (index !== undefined) {
      segment.dead.add(index)
      positions.get(segment)?.delete(id)
    }
    locations?.delete(id)
  }
  const addSegment = (bytes: Buffer, ids: readonly string[]) => {
    const segment: Segment = {
      name: null,
      reader: openSegment(bufferSource(bytes)),
      bytes,
      dead: new Set(),
    }
    segments.push(segment)
    if (locations !== null) for (const id of ids) locations.set(id, segment)
    return segment
  }
  /** Turns the entries put since the last flush into a segment. */
  const flush = () => {
    if (pending.size === 0) return
    const built = pending
    pending = createSegmentBuilder()
    addSegment(built.bytes(), built.ids())
  }
  /** Rewrites `chosen` as one segment of their live documents. */
  const merge = (chosen: Segment[]) => {
    const bytes = mergeSegments(chosen)
    for (const segment of chosen) segments.splice(segments.indexOf(segment), 1)
    locations = null
    const reader = openSegment(bufferSource(bytes))
    if (reader.count > 0) segments.push({ name: null, reader, bytes, dead: new Set() })
  }

  const index: RecallIndex & {
    readonly segments: readonly Segment[]
    /** Writes pending entries into a segment and merges as the policy says. */
    compact(): void
    readonly size: number
  } = {
    segments,
    get size() {
      return segments.reduce(
        (sum, segment) => sum + segment.reader.count - segment.dead.size,
        pending.size,
      )
    },
    async put(entries: readonly RecallEntry[]) {
      for (const entry of entries) {
        removeOne(entry.id)
        pending.add(entry)
        // Bounded memory while a large store is indexed: pieces are merged later, as postings.
        if (pending.size >= FLUSH_DOCUMENTS) flush()
      }
    },
    async remove(ids: readonly string[]) {
      for (const id of ids) removeOne(id)
    },
    compact() {
      flush()
      for (const segment of [...segments]) {
        if (segment.dead.size > 0 && segment.dead.size >= segment.reader.count * MAX_DEAD_SHARE)
          merge([segment])
      }
      const small = segments.filter(
        (segment) => segment.reader.count - segment.dead.size < LARGE_SEGMENT,
      )
      if (small.length > MAX_SEGMENTS) merge(small)
    },
    async search(query) {
      flush()
      const terms = queryTerms(query.text.replace(/\0/g, ' '))
      if (terms.length === 0 || query.limit <= 0) return []
      let count = 0
      let totalLength = 0
      for (const segment of segments) {
        count += segment.reader.count - segment.dead.size
        totalLength += segment.reader.totalLength
      }
      const all = segments.reduce((sum, segment) => sum + segment.reader.count, 0)
      const average = totalLength / Math.max(1, all)
      const kinds = query.in && query.in.length > 0 ? new Set(query.in) : null
      const idfs = terms.map((term) => {
        const frequency = segments.reduce(
          (sum, segment) => sum + segment.reader.documentFrequency(term),
          0,
        )
        return Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
      })
      // Only the best few become candidates: a common word can match every document, and making
      // an object of each to sort them all cost the prompt hook more than the search itself.
      // Without a date filter the best `limit` are the hits, ties and all; a date filter drops
      // some of them, so it takes more (and falls back to every match).
      const wanted = query.since === undefined ? query.limit : query.limit * 3 + 20
      // Each segment's scores, and the documents its postings reached: only those are visited
      // again (a segment holds 20,000 documents, a query reaches a few).
      const scored = scoreSegments(segments, terms, idfs, average, {
        wanted,
        // Pruning needs scores that only grow: every IDF positive (not so when most are dead).
        prune: kinds === null && query.since === undefined && idfs.every((idf) => idf > 0),
      })
      const candidates = (threshold: number) => {
        const found: { segment: Segment; index: number; score: number }[] = []
        scored.forEach(({ scores, touched }, position) => {
          const segment = segments[position] as Segment
          // Indexed, not for-of: an iterator makes an object per step in a cold process.
          for (let slot = 0; slot < touched.length; slot += 1) {
            const at = touched[slot] as number
            const score = scores[at] ?? 0
            if (score <= 0 || score < threshold) continue
            if (kinds !== null && !kinds.has(segment.reader.kindOf(at))) continue
            found.push({ segment, index: at, score })
          }
        })
        return found.sort((left, right) => right.score - left.score)
      }
      const thresholdFor = (keep: number) => {
        if (kinds !== null) return 0
        return keepthLargest(scored, keep)
      }
      const budget = query.snippetChars ?? DEFAULT_SNIPPET_CHARS
      const collect = (list: { segment: Segment; index: number; score: number }[]) => {
        const hits: RecallHit[] = []
        for (const candidate of list) {
          if (hits.length >= query.limit) break
          const entry = candidate.segment.reader.entry(candidate.index)
          if (query.since !== undefined && !isOnOrAfter(entry.date, query.since)) continue
          // Made when read: a caller keeps a few of the hits it asked for (the rest are folded
          // or stale), and a snippet stems every word of its text.
          let snippet: string | undefined
          hits.push({
            id: entry.id,
            kind: entry.kind,
            location: entry.location,
            text: entry.text,
            get snippet() {
              snippet ??= snippetOf(entry.text, terms, budget)
              return snippet
            },
            date: entry.date,
            sources: [...entry.sources],
            score: candidate.score,
          })
        }
        return hits
      }
      const threshold = thresholdFor(wanted)
      let hits = collect(candidates(threshold))
      // The date filter left too few of the best: look at every match.
      if (hits.length < query.limit && threshold > 0) hits = collect(candidates(0))
      return hits
    },
  }
  return index
}

/**
 * BM25 over every segment, the rarest terms first. With `prune`, once the best share the terms
 * left could add to a document (each at most its IDF times k1 + 1) is below the `wanted`-th best
 * score so far, those terms only add to documents already reached: a document reached by none of
 * the rarer terms cannot enter the best `wanted` (MaxScore; Turtle and Flood 1995), so the
 * results are the same as scoring every posting. Scores only grow, so the `wanted`-th best so far
 * is a lower bound of the final one. A prompt of common words (fix, problem, fail) reached ~8,000
 * documents of a 1,000-session brain, half of them by "fix" alone.
 */
function scoreSegments(
  segments: readonly Segment[],
  terms: readonly string[],
  idfs: readonly number[],
  average: number,
  options: { wanted: number; prune: boolean },
): { scores: Float64Array; touched: Int32Array }[] {
  const states = segments.map((segment) => ({
    segment,
    scores: new Float64Array(segment.reader.count),
    reached: { indexes: new Int32Array(segment.reader.count), count: 0 } as Touched,
  }))
  const order = terms
    .map((term, position) => ({ term, idf: idfs[position] ?? 0 }))
    .sort((left, right) => right.idf - left.idf)
  const bounds = order.map(({ idf }) => idf * (K1 + 1))
  const postingsLeft = order.map(({ term }) =>
    segments.reduce((sum, segment) => sum + segment.reader.documentFrequency(term), 0),
  )
  for (let at = order.length - 2; at >= 0; at -= 1) {
    bounds[at] = (bounds[at] as number) + (bounds[at + 1] as number)
    postingsLeft[at] = (postingsLeft[at] as number) + (postingsLeft[at + 1] as number)
  }
  let onlyReached = false
  for (let at = 0; at < order.length; at += 1) {
    const { term, idf } = order[at] as { term: string; idf: number }
    const reachedSoFar = states.reduce((sum, state) => sum + state.reached.count, 0)
    // Worth a look only when the postings left outnumber the documents a threshold would visit,
    // and when the terms scored could have lifted a document past what the rest can add.
    const scoredBound = (bounds[0] as number) - (bounds[at] as number)
    if (
      options.prune &&
      !onlyReached &&
      at > 0 &&
      (postingsLeft[at] as number) > reachedSoFar &&
      scoredBound > (bounds[at] as number)
    ) {
      const best = keepthLargest(touchedSoFar(states), options.wanted)
      // A margin for rounding: the bound must hold for sums done in floating point.
      onlyReached = best > 0 && (bounds[at] as number) * (1 + 1e-9) < best
    }
    for (const state of states)
      state.segment.reader.score(term, idf, average, state.scores, state.reached, onlyReached)
  }
  return touchedSoFar(states)
}

/** Each segment's scores with its dead documents at 0, and the documents reached, in order. */
function touchedSoFar(
  states: readonly { segment: Segment; scores: Float64Array; reached: Touched }[],
): { scores: Float64Array; touched: Int32Array }[] {
  return states.map(({ segment, scores, reached }) => {
    for (const dead of segment.dead) scores[dead] = 0
    // In document order, as a scan of every document would find them (ties keep that order).
    return { scores, touched: reached.indexes.subarray(0, reached.count).sort() }
  })
}

/**
 * The `keep`-th largest positive score of the documents `lists` reached (0 when fewer are
 * positive): their scores gathered and sorted natively, one pass and no object per document.
 */
function keepthLargest(
  lists: readonly { scores: Float64Array; touched: Int32Array }[],
  keep: number,
): number {
  const all = new Float64Array(lists.reduce((sum, list) => sum + list.touched.length, 0))
  let size = 0
  for (const { scores, touched } of lists) {
    for (let position = 0; position < touched.length; position += 1) {
      const score = scores[touched[position] as number] as number
      if (score > 0) {
        all[size] = score
        size += 1
      }
    }
  }
  if (size < keep) return 0
  const positive = all.subarray(0, size).sort()
  return positive[size - keep] as number
}

/** The type of a segmented index. */
export type SegmentedRecallIndex = ReturnType<typeof createSegmentedRecallIndex>
