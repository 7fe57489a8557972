/**
 * Sentence meaning from word vectors: the shipped file data/word-vectors/glove-100d.swv (GloVe
 * 100-d, the most frequent lowercase words, 8-bit; scripts/build-word-vectors.mjs documents the
 * format) decoded here from its bytes, and each sentence a weighted mean of its content words'
 * vectors. Pure: the bytes are read by an adapter (engine/adapters/node/word-vectors-file.ts).
 */
import { SomnusError } from '../errors.ts'
import { COMMON_DIRECTION_REFERENCE } from './common-direction-reference.ts'
import { STOP_WORDS } from './stop-words.ts'

/** Decoded word vectors: a word's row is its frequency rank (0 the most frequent). */
export interface WordVectors {
  dimensions: number
  rows: ReadonlyMap<string, number>
  scales: Float32Array
  values: Int8Array
}

/** The file's bytes with a name that identifies its content (decoding is cached by it). */
export interface WordVectorsFile {
  name: string
  bytes: Uint8Array
}

const MAGIC = 'SWV1'
const HEADER_BYTES = 12

/** The last file decoded: a worker thread gets the same file with every grouping call. */
let cached: { name: string; byteLength: number; vectors: WordVectors } | undefined

/** Decodes `file` (cached by name and size, so repeated calls decode once). */
export function decodeWordVectors(file: WordVectorsFile): WordVectors {
  if (cached?.name === file.name && cached.byteLength === file.bytes.byteLength)
    return cached.vectors
  const { bytes } = file
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const magic = String.fromCharCode(...bytes.subarray(0, 4))
  const count = bytes.byteLength >= HEADER_BYTES ? view.getUint32(4, true) : 0
  const dimensions = bytes.byteLength >= HEADER_BYTES ? view.getUint32(8, true) : 0
  const valuesStart = HEADER_BYTES + count * 4
  const wordsStart = valuesStart + count * dimensions
  if (magic !== MAGIC || count === 0 || dimensions === 0 || wordsStart > bytes.byteLength) {
    throw new SomnusError(
      'ENVIRONMENT',
      `The word-vector file ${file.name} is not in the SWV1 format or is cut short; reinstall somnus (or rebuild it with scripts/build-word-vectors.mjs).`,
    )
  }
  const scales = new Float32Array(count)
  for (let row = 0; row < count; row += 1)
    scales[row] = view.getFloat32(HEADER_BYTES + row * 4, true)
  // A view, not a copy: the bytes may be shared by every thread of the CPU pool.
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + valuesStart, count * dimensions)
  const words = new TextDecoder().decode(bytes.subarray(wordsStart)).split('\n')
  const rows = new Map<string, number>()
  words.forEach((word, row) => {
    if (row < count) rows.set(word, row)
  })
  const vectors = { dimensions, rows, scales, values }
  cached = { name: file.name, byteLength: bytes.byteLength, vectors }
  return vectors
}

/**
 * SIF's smoothing (Arora et al. 2017, "A simple but tough-to-beat baseline for sentence
 * embeddings"): a word of corpus probability p weighs a / (a + p), so frequent words count less.
 */
const SIF_SMOOTHING = 1e-3

/** Zipf's law turns a frequency rank into a probability; its normalizer for GloVe's 400k words. */
const ZIPF_NORMALIZER = Math.log(400_000) + 0.5772

/** Lowercase letter runs: the words the file holds. */
const WORD = /[a-z]+/g

/**
 * Each text's meaning vector: the weighted mean of its known content words' vectors (stop words
 * and words not in the file left out), minus its part along the direction such statements share
 * (their "frame": "someone who", "more", "becoming", as SIF removes a common component), unit
 * length. A word weighs its SIF weight (rare in English: more) times its inverse document
 * frequency in the batch (in many of these texts: less), as the lexical score weighs stems. The
 * shared direction is the first principal direction of the batch's means pooled with those of
 * COMMON_DIRECTION_REFERENCE: from the batch alone, a batch where one theme dominates would lose
 * that theme. A text with no known word gets a zero vector (similarity 0 to everything).
 */
export function meaningVectors(texts: readonly string[], vectors: WordVectors): Float32Array[] {
  const means = weightedMeans(texts, vectors)
  const direction = principalDirection([...means, ...referenceMeans(vectors)])
  for (const vector of means) {
    const projection = dot(vector, direction)
    for (let index = 0; index < vector.length; index += 1)
      vector[index] = (vector[index] ?? 0) - projection * (direction[index] ?? 0)
    normalize(vector)
  }
  return means
}

/** The reference statements' means, per decoded file. */
const referenceCache = new WeakMap<WordVectors, Float32Array[]>()

function referenceMeans(vectors: WordVectors): Float32Array[] {
  let means = referenceCache.get(vectors)
  if (!means) {
    means = weightedMeans(COMMON_DIRECTION_REFERENCE, vectors)
    referenceCache.set(vectors, means)
  }
  return means
}

/** SIF × batch-IDF weighted means of `texts`' known content words, unit length. */
function weightedMeans(texts: readonly string[], vectors: WordVectors): Float32Array[] {
  const { dimensions, rows, scales, values } = vectors
  const known = texts.map((text) =>
    (text.toLowerCase().match(WORD) ?? []).filter(
      (word) => !STOP_WORDS.has(word) && rows.has(word),
    ),
  )
  const documentFrequency = new Map<string, number>()
  for (const words of known)
    for (const word of new Set(words))
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1)
  return known.map((words) => {
    const sum = new Float32Array(dimensions)
    for (const word of words) {
      const row = rows.get(word) ?? 0
      const probability = 1 / ((row + 1) * ZIPF_NORMALIZER)
      const sif = SIF_SMOOTHING / (SIF_SMOOTHING + probability)
      const idf = Math.log((texts.length + 1) / ((documentFrequency.get(word) ?? 0) + 0.5))
      const weight = sif * idf * (scales[row] ?? 0)
      const offset = row * dimensions
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        sum[dimension] = (sum[dimension] ?? 0) + weight * (values[offset + dimension] ?? 0)
    }
    normalize(sum)
    return sum
  })
}

/** Cosine of two unit (or zero) vectors. */
export function dot(left: Float32Array, right: Float32Array): number {
  let total = 0
  for (let index = 0; index < left.length; index += 1)
    total += (left[index] ?? 0) * (right[index] ?? 0)
  return total
}

function normalize(vector: Float32Array): void {
  const length = Math.sqrt(dot(vector, vector))
  if (length === 0) return
  for (let index = 0; index < vector.length; index += 1)
    vector[index] = (vector[index] ?? 0) / length
}

/**
 * The first principal direction of `vectors` (uncentered, as SIF computes it), by power
 * iteration: 50 rounds settle it to well within the 8-bit vectors' precision.
 */
function principalDirection(vectors: readonly Float32Array[]): Float32Array {
  const dimensions = vectors[0]?.length ?? 0
  let direction = new Float32Array(dimensions).fill(1 / Math.sqrt(dimensions))
  for (let iteration = 0; iteration < 50; iteration += 1) {
    const next = new Float32Array(dimensions)
    for (const vector of vectors) {
      const projection = dot(vector, direction)
      for (let index = 0; index < dimensions; index += 1)
        next[index] = (next[index] ?? 0) + projection * (vector[index] ?? 0)
    }
    normalize(next)
    direction = next
  }
  return direction
}
