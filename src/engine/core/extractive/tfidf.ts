/** TF-IDF vectors over the input's own documents (sentences or units) and their cosine similarity. */

/** A sparse vector: stem → weight. */
export type SparseVector = ReadonlyMap<string, number>

/** Inverse document frequency of every stem: ln(1 + N / df), so a stem in every document still counts a little. */
export function inverseDocumentFrequency(
  documents: readonly (readonly string[])[],
): Map<string, number> {
  const documentFrequency = new Map<string, number>()
  for (const stems of documents) {
    // A document's distinct stems count once; the summarizer passes them already distinct.
    for (const stem of isDistinct(stems) ? stems : new Set(stems))
      documentFrequency.set(stem, (documentFrequency.get(stem) ?? 0) + 1)
  }
  const idf = new Map<string, number>()
  for (const [stem, count] of documentFrequency)
    idf.set(stem, Math.log(1 + documents.length / count))
  return idf
}

/** The TF-IDF vector of one document: (1 + ln tf) × idf per stem. */
export function tfIdfVector(
  stems: readonly string[],
  idf: ReadonlyMap<string, number>,
): SparseVector {
  const termFrequency = new Map<string, number>()
  for (const stem of stems) termFrequency.set(stem, (termFrequency.get(stem) ?? 0) + 1)
  const vector = new Map<string, number>()
  for (const [stem, count] of termFrequency)
    vector.set(stem, (1 + Math.log(count)) * (idf.get(stem) ?? 0))
  return vector
}

/** Cosine similarity of two sparse vectors (0 when either is empty). */
export function cosine(left: SparseVector, right: SparseVector): number {
  let dot = 0
  const [small, large] = left.size <= right.size ? [left, right] : [right, left]
  for (const [stem, weight] of small) dot += weight * (large.get(stem) ?? 0)
  if (dot === 0) return 0
  return dot / (norm(left) * norm(right))
}

function norm(vector: SparseVector): number {
  let sum = 0
  for (const weight of vector.values()) sum += weight * weight
  return Math.sqrt(sum)
}

/** True when no stem repeats: cheap for the short documents (sentences) this is asked about. */
function isDistinct(stems: readonly string[]): boolean {
  if (stems.length > 16) return false
  for (let at = 1; at < stems.length; at += 1) {
    for (let before = 0; before < at; before += 1) if (stems[before] === stems[at]) return false
  }
  return true
}
