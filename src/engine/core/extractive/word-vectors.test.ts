/** The shipped word-vector file decodes, its vectors carry meaning, and a bad file is refused. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import { SomnusError } from '../errors.ts'
import { decodeWordVectors, dot, meaningVectors, type WordVectors } from './word-vectors.ts'

const bytes = new Uint8Array(readFileSync(join(REPO_ROOT, 'data/word-vectors/glove-100d.swv')))

/** A word's vector, dequantized and unit length. */
function wordVector(vectors: WordVectors, word: string): Float32Array {
  const row = vectors.rows.get(word)
  if (row === undefined) throw new Error(`${word} is not in the file`)
  const vector = new Float32Array(vectors.dimensions)
  for (let index = 0; index < vectors.dimensions; index += 1)
    vector[index] =
      (vectors.values[row * vectors.dimensions + index] ?? 0) * (vectors.scales[row] ?? 0)
  const length = Math.sqrt(dot(vector, vector))
  return vector.map((value) => value / length)
}

describe('word vectors', () => {
  const vectors = decodeWordVectors({ name: 'shipped', bytes })

  it('decodes the shipped file: 50,000 lowercase words, 100 dimensions, by frequency', () => {
    expect(vectors.rows.size).toBe(50_000)
    expect(vectors.dimensions).toBe(100)
    expect(vectors.rows.get('the')).toBe(0)
    expect([...vectors.rows.keys()].every((word) => /^[a-z]+$/.test(word))).toBe(true)
  })

  it('keeps meaning through 8 bits: "ship" is nearer "release" than "banana"', () => {
    const ship = wordVector(vectors, 'ship')
    const release = wordVector(vectors, 'deploy')
    expect(dot(wordVector(vectors, 'tests'), wordVector(vectors, 'testing'))).toBeGreaterThan(0.6)
    expect(dot(ship, release)).toBeGreaterThan(dot(ship, wordVector(vectors, 'banana')))
  })

  it('gives a text with no known content word a zero vector', () => {
    const [unknown, known] = meaningVectors(['the of zzqxv', 'tests before shipping'], vectors)
    expect(unknown && dot(unknown, unknown)).toBe(0)
    expect(known && dot(known, known)).toBeCloseTo(1, 5)
  })

  it('refuses a file that is not SWV1 or is cut short, saying how to fix it', () => {
    for (const bad of [new Uint8Array(4), bytes.subarray(0, 1000)]) {
      let caught: unknown
      try {
        decodeWordVectors({ name: `bad-${bad.length}`, bytes: bad })
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(SomnusError)
      expect((caught as SomnusError).code).toBe('ENVIRONMENT')
      expect((caught as SomnusError).message).toContain('reinstall somnus')
    }
  })
})
