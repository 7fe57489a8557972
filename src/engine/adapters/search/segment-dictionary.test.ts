import { describe, expect, it } from 'vitest'
import { openDictionary, type TermPostings, writeDictionary } from './segment-dictionary.ts'

/** A dictionary written and opened again over its own bytes. */
function roundTrip(terms: string[]) {
  const postings = terms.map((_, index): TermPostings => [index * 3, index + 1])
  const written = writeDictionary(terms, postings)
  let reads = 0
  const reader = openDictionary(
    written.index,
    written.termBytes.length,
    (offset, bytes) => {
      reads += 1
      return written.termBytes.subarray(offset, offset + bytes)
    },
    (offset, bytes) => written.stats.subarray(offset, offset + bytes),
  )
  return { reader, postings, reads: () => reads }
}

describe('segment dictionary', () => {
  it('finds every term of a dictionary of many blocks, and no other', () => {
    const terms = Array.from({ length: 300 }, (_, index) => `t${index.toString().padStart(4, '0')}`)
    terms.push('café', 'load_session_messages', 'zz')
    terms.sort()
    const { reader, postings, reads } = roundTrip(terms)
    terms.forEach((term, index) => {
      expect(reader.find(term)).toEqual(postings[index])
    })
    for (const missing of ['', 'a', 't0000a', 't01', 'zzz', 'café2'])
      expect(reader.find(missing)).toBeNull()
    // Five blocks of 64, each read once however many lookups it served.
    expect(reads()).toBe(5)
    expect(reader.all()).toEqual(terms.map((term, index) => [term, postings[index]]))
  })

  it('holds nothing when empty', () => {
    const { reader } = roundTrip([])
    expect(reader.find('anything')).toBeNull()
    expect(reader.all()).toEqual([])
  })
})
