import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sha256Hex } from './sha256-hex.ts'

const nodeSha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('sha256Hex', () => {
  it('gives the FIPS 180-4 digests of the standard test messages', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
  })

  it('equals node:crypto on every length around the block edges', () => {
    for (let length = 0; length <= 200; length += 1) {
      const text = 'x'.repeat(length)
      expect(sha256Hex(text), `length ${length}`).toBe(nodeSha256(text))
    }
  })

  it('equals node:crypto on any text, hashed as UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(sha256Hex(text)).toBe(nodeSha256(text))
      }),
      { numRuns: 500 },
    )
  })
})
