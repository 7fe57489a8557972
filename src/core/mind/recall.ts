/**
 * Total recall: ranks lines of the creature's files against a query (BM25 over Porter stems of
 * content words), each hit pointing at its file and line.
 */
import { contentStems, shorten } from '../extractive/text.ts'

/** One searchable line. */
export interface RecallLine {
  file: string
  /** 1-based. */
  line: number
  /** What is searched and shown (a JSON line's content, a markdown line as is). */
  text: string
  /** When it was written, if known (ties go to the newest). */
  t?: string | undefined
}

/** One hit. */
export interface RecallHit {
  file: string
  line: number
  score: number
  text: string
  t?: string | undefined
}

const K1 = 1.2
const B = 0.75
/** Characters of a hit's text shown. */
const HIT_CHARS = 300

/** The `limit` best lines for `query`, best first; lines sharing no stem with it never match. */
export function rankRecall(
  lines: readonly RecallLine[],
  query: string,
  limit: number,
): RecallHit[] {
  const terms = [...new Set(contentStems(query))]
  if (terms.length === 0) return []
  const stems = lines.map((item) => contentStems(item.text))
  const average = stems.reduce((sum, list) => sum + list.length, 0) / Math.max(1, stems.length)
  const frequency = new Map<string, number>()
  for (const list of stems)
    for (const stem of new Set(list)) frequency.set(stem, (frequency.get(stem) ?? 0) + 1)
  const hits: RecallHit[] = []
  lines.forEach((item, index) => {
    const list = stems[index] ?? []
    let score = 0
    for (const term of terms) {
      const count = list.filter((stem) => stem === term).length
      if (count === 0) continue
      const documents = frequency.get(term) ?? 0
      const idf = Math.log(1 + (lines.length - documents + 0.5) / (documents + 0.5))
      score +=
        (idf * count * (K1 + 1)) / (count + K1 * (1 - B + (B * list.length) / (average || 1)))
    }
    if (score > 0) {
      hits.push({
        file: item.file,
        line: item.line,
        score,
        text: shorten(item.text, HIT_CHARS),
        t: item.t,
      })
    }
  })
  return hits
    .sort(
      (left, right) =>
        right.score - left.score ||
        (right.t ?? '').localeCompare(left.t ?? '') ||
        left.line - right.line,
    )
    .slice(0, limit)
}
