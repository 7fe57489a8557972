/**
 * Groups statements that say the same thing: TF-IDF cosine over stemmed content words (blended
 * with the cosine of their meaning vectors when word vectors are given), average-link
 * agglomerative clustering down to `threshold`. Singletons are left out.
 */
import type { TextUnit } from './sentences.ts'
import { contentStems, shorten } from './text.ts'
import { cosine, inverseDocumentFrequency, tfIdfVector } from './tfidf.ts'
import {
  decodeWordVectors,
  dot,
  meaningVectors,
  type WordVectors,
  type WordVectorsFile,
} from './word-vectors.ts'

/**
 * The share of the meaning score in a pair's similarity when word vectors are given. Half: 0.7
 * and 1.0 did worse on the tune split of bench/identity-grouping.ts (bench/README.md).
 */
export const MEANING_WEIGHT = 0.5

/**
 * Default mean similarity within a group. On short statements 0.5 split clear paraphrases ("Never
 * push directly to the main branch." / "Do not push to main directly; open a pull request."),
 * 0.25 began to merge topics; 0.3-0.4 made no wrong merge in grouping.test.ts.
 */
export const DEFAULT_GROUP_THRESHOLD = 0.4

/** A group: its label (the most central member's text, shortened) and member unit ids. */
export interface SimilarityGroup {
  label: string
  members: string[]
}

/**
 * Average-link clustering: repeatedly merges the two clusters with the highest mean pairwise
 * similarity while that mean is at least `threshold`; ties go to the earliest pair. Groups come
 * out in order of their first member, members in input order.
 */
export function groupSimilar(
  units: readonly TextUnit[],
  threshold = DEFAULT_GROUP_THRESHOLD,
  wordVectors?: WordVectorsFile,
): SimilarityGroup[] {
  const lexical = lexicalSimilarity(units)
  const similarity = wordVectors
    ? blend(lexical, meaningSimilarity(units, decodeWordVectors(wordVectors)), MEANING_WEIGHT)
    : lexical
  return clusterBySimilarity(units, similarity, threshold)
}

/** TF-IDF cosine over stemmed content words, every pair. */
export function lexicalSimilarity(units: readonly TextUnit[]): number[][] {
  const stems = units.map((unit) => contentStems(unit.text))
  const idf = inverseDocumentFrequency(stems)
  const vectors = stems.map((list) => tfIdfVector(list, idf))
  return vectors.map((left) => vectors.map((right) => cosine(left, right)))
}

/** Cosine of the meaning vectors (word-vectors.ts), every pair; negative cosines count as 0. */
export function meaningSimilarity(units: readonly TextUnit[], vectors: WordVectors): number[][] {
  const meanings = meaningVectors(
    units.map((unit) => unit.text),
    vectors,
  )
  return meanings.map((left) => meanings.map((right) => Math.max(0, dot(left, right))))
}

/** `weight` of `meaning` and the rest of `lexical`, pair by pair. */
export function blend(lexical: number[][], meaning: number[][], weight: number): number[][] {
  return lexical.map((row, left) =>
    row.map((value, right) => (1 - weight) * value + weight * (meaning[left]?.[right] ?? 0)),
  )
}

/**
 * Average-link clustering of `units` given their pairwise `similarity`, as groupSimilar
 * describes.
 */
export function clusterBySimilarity(
  units: readonly TextUnit[],
  similarity: number[][],
  threshold: number,
): SimilarityGroup[] {
  // clusters[i] holds unit indexes; linkSum[i][j] the sum of similarities between clusters i and j.
  const clusters: (number[] | null)[] = units.map((_, index) => [index])
  const linkSum = similarity.map((row) => [...row])
  for (;;) {
    let best: { left: number; right: number; mean: number } | undefined
    for (let left = 0; left < clusters.length; left += 1) {
      const leftMembers = clusters[left]
      if (!leftMembers) continue
      for (let right = left + 1; right < clusters.length; right += 1) {
        const rightMembers = clusters[right]
        if (!rightMembers) continue
        const mean = (linkSum[left]?.[right] ?? 0) / (leftMembers.length * rightMembers.length)
        // The epsilon lets identical texts (cosine 0.99999…) meet a threshold of 1.
        if (mean >= threshold - 1e-9 && (!best || mean > best.mean)) best = { left, right, mean }
      }
    }
    if (!best) break
    const merged = [...(clusters[best.left] ?? []), ...(clusters[best.right] ?? [])].sort(
      (a, b) => a - b,
    )
    clusters[best.left] = merged
    clusters[best.right] = null
    for (let other = 0; other < clusters.length; other += 1) {
      const sum = (linkSum[best.left]?.[other] ?? 0) + (linkSum[best.right]?.[other] ?? 0)
      const leftRow = linkSum[best.left]
      const otherRow = linkSum[other]
      if (leftRow) leftRow[other] = sum
      if (otherRow) otherRow[best.left] = sum
    }
  }
  return clusters
    .filter((members): members is number[] => members !== null && members.length > 1)
    .sort((left, right) => (left[0] ?? 0) - (right[0] ?? 0))
    .map((members) => ({
      label: shorten(units[centralMember(members, similarity)]?.text ?? '', 100),
      members: members.map((index) => units[index]?.id ?? ''),
    }))
}

/** The member most similar on average to the others (ties: the earliest). */
function centralMember(members: readonly number[], similarity: readonly number[][]): number {
  let best = members[0] ?? 0
  let bestScore = -1
  for (const member of members) {
    const score = members.reduce(
      (sum, other) => sum + (other === member ? 0 : (similarity[member]?.[other] ?? 0)),
      0,
    )
    if (score > bestScore) [best, bestScore] = [member, score]
  }
  return best
}
