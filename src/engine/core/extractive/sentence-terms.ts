/**
 * The TF-IDF vectors of many sentences in flat typed arrays: stems interned to integer term ids,
 * each sentence's distinct terms in one shared array (compressed sparse rows). A 10 MB input has
 * a million stems; as Maps and arrays per sentence they cost tens of megabytes the arrays don't.
 * Every number is computed as tfidf.ts computes it, in the same order, so the results are
 * bit-identical to `inverseDocumentFrequency`, `tfIdfVector` and `cosine`.
 */

/** Sentences as rows of term ids with their TF-IDF weights. */
export interface SentenceTerms {
  /** How many distinct stems (term ids run from 0 to termCount - 1). */
  termCount: number
  /**
   * Sentence s holds the entries rowStart[s] to rowStart[s + 1] - 1 of `terms` and `tfIdf` (the
   * arrays may run on past the last sentence's entries, unused).
   */
  rowStart: Int32Array
  /** Each sentence's distinct term ids, in order of first occurrence. */
  terms: Int32Array
  /** (1 + ln tf) × idf of each entry of `terms`, as `tfIdfVector` weighs it. */
  tfIdf: Float64Array
  /** Each sentence's vector norm, its weights squared and summed in order of first occurrence. */
  norm: Float64Array
  /** ln(1 + N / df) by term id, as `inverseDocumentFrequency` gives it. */
  idf: Float64Array
}

/** The term rows of sentences given as their stems (repeats allowed: they make the term frequency). */
export function sentenceTerms(stemLists: readonly (readonly string[])[]): SentenceTerms {
  const sentences = stemLists.length
  // Ids in order of first occurrence, so iterating ids visits stems as the idf Map would.
  const termIds = new Map<string, number>()
  let stemCount = 0
  for (const stems of stemLists) {
    stemCount += stems.length
    for (const stem of stems) if (!termIds.has(stem)) termIds.set(stem, termIds.size)
  }
  const termCount = termIds.size
  const rowStart = new Int32Array(sentences + 1)
  // Sized for every stem, though repeats within a sentence share an entry: a few percent unused
  // beats a second, exact copy. `tfIdf` holds each entry's term frequency until idf is known.
  const terms = new Int32Array(stemCount)
  const tfIdf = new Float64Array(stemCount)
  const documentFrequency = new Int32Array(termCount)
  /** The sentence that last held each term, and where its entry is: repeats count there. */
  const lastSentence = new Int32Array(termCount).fill(-1)
  const lastEntry = new Int32Array(termCount)
  let entries = 0
  for (let sentence = 0; sentence < sentences; sentence += 1) {
    rowStart[sentence] = entries
    for (const stem of stemLists[sentence] as readonly string[]) {
      const term = termIds.get(stem) as number
      if (lastSentence[term] === sentence) {
        const entry = lastEntry[term] as number
        tfIdf[entry] = (tfIdf[entry] as number) + 1
        continue
      }
      lastSentence[term] = sentence
      lastEntry[term] = entries
      terms[entries] = term
      tfIdf[entries] = 1
      documentFrequency[term] = (documentFrequency[term] as number) + 1
      entries += 1
    }
  }
  rowStart[sentences] = entries
  termIds.clear()
  const idf = new Float64Array(termCount)
  for (let term = 0; term < termCount; term += 1)
    idf[term] = Math.log(1 + sentences / (documentFrequency[term] as number))
  const norm = new Float64Array(sentences)
  for (let sentence = 0; sentence < sentences; sentence += 1) {
    let sum = 0
    for (
      let entry = rowStart[sentence] as number;
      entry < (rowStart[sentence + 1] as number);
      entry += 1
    ) {
      const weight =
        (1 + Math.log(tfIdf[entry] as number)) * (idf[terms[entry] as number] as number)
      tfIdf[entry] = weight
      sum += weight * weight
    }
    norm[sentence] = Math.sqrt(sum)
  }
  return { termCount, rowStart, terms, tfIdf, norm, idf }
}

/**
 * `cosine` of two sentences' vectors, bit for bit: the shorter row (the left one on a tie) is
 * walked in its own order against the other spread into `dense` (all zeros, left so on return).
 */
export function sentenceCosine(
  index: SentenceTerms,
  left: number,
  right: number,
  dense: Float64Array,
): number {
  const { rowStart, terms, tfIdf } = index
  const leftIsSmall =
    (rowStart[left + 1] as number) - (rowStart[left] as number) <=
    (rowStart[right + 1] as number) - (rowStart[right] as number)
  const small = leftIsSmall ? left : right
  const large = leftIsSmall ? right : left
  const largeStart = rowStart[large] as number
  const largeEnd = rowStart[large + 1] as number
  for (let entry = largeStart; entry < largeEnd; entry += 1)
    dense[terms[entry] as number] = tfIdf[entry] as number
  let dot = 0
  for (let entry = rowStart[small] as number; entry < (rowStart[small + 1] as number); entry += 1)
    dot += (tfIdf[entry] as number) * (dense[terms[entry] as number] as number)
  for (let entry = largeStart; entry < largeEnd; entry += 1) dense[terms[entry] as number] = 0
  if (dot === 0) return 0
  return dot / ((index.norm[left] as number) * (index.norm[right] as number))
}
