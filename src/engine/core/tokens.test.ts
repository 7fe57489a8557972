/**
 * countTokens sums cached pieces: it must agree with the BPE library on every text whose pieces
 * BPE sees whole, and stay within a hair of it on runs it counts in slices.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { HAS_SHARED, LOCOMO_DIR, TRANSCRIPTS_DIR } from '../../../test/support/shared-data.ts'
import { countTokens, MAX_PIECE_LENGTH } from './tokens.ts'

/** The library's count with special tokens read as ordinary text, as countTokens reads them. */
function ordinaryCount(text: string): number {
  return libraryCount(text, { disallowedSpecial: new Set() })
}

describe('countTokens', () => {
  it('equals the library on any text up to MAX_PIECE_LENGTH: words, digits, punctuation runs, newlines, any Unicode', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(
        "I'm",
        "They'LL",
        ' 12345678',
        '...\n\n',
        '\r\n',
        '  \t ',
        'naïve café',
        '日本語のテキスト',
        '🙂👍🏽',
        '->/',
        '"quoted"',
        'x\u200by',
        "it's",
        'ENOENT: /dist/',
        '<|endoftext|>',
        '<|',
      ),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('')
        // No piece longer than the text: BPE sees every piece whole.
        fc.pre(text.length <= MAX_PIECE_LENGTH)
        expect(countTokens(text)).toBe(text.length === 0 ? 0 : ordinaryCount(text))
      }),
      { numRuns: 2000 },
    )
  })

  it('equals the library on text with spaces, however long', () => {
    const word = fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'abcXYZ019=-_./:'), minLength: 1, maxLength: 40 }),
    )
    const gap = fc.constantFrom(' ', ' ', ' ', '\n', '  ', '\t', '\n\n    ')
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 120 }), (words) => {
        const text = words.map(([text, space]) => text + space).join('')
        expect(countTokens(text)).toBe(ordinaryCount(text))
      }),
      { numRuns: 300 },
    )
  })

  it('counts long runs with no spaces in slices, within 2% of the library, never splitting a character', () => {
    let seed = 7
    const random = (range: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff
      return (seed >> 8) % range
    }
    const run = (length: number, next: () => string) => {
      let text = ''
      while (text.length < length) text += next()
      return text
    }
    const runs = {
      oneLetter: 'a'.repeat(10_000),
      capitals: 'Q'.repeat(10_000),
      letters: run(10_000, () => String.fromCharCode(97 + random(26))),
      punctuation: run(10_000, () => '=-*#|'.charAt(random(5))),
      spaces: ' '.repeat(10_000),
      newlines: '\n'.repeat(10_000),
      hanzi: run(10_000, () => String.fromCharCode(0x4e00 + random(2000))),
      // Every character a surrogate pair: a slice cut between halves would count U+FFFD bytes.
      emoji: run(10_001, () => String.fromCodePoint(0x1f600 + random(60))),
    }
    for (const [name, text] of Object.entries(runs)) {
      const expected = libraryCount(text)
      const counted = countTokens(text)
      expect(Math.abs(counted - expected), name).toBeLessThanOrEqual(Math.ceil(expected * 0.02))
    }
    // ' ' and 256 emoji are one piece whose first cut would fall between a pair's halves.
    const smiles = (count: number) => '🙂'.repeat(count)
    const half = MAX_PIECE_LENGTH / 2
    expect(countTokens(` ${smiles(half)}`)).toBe(
      libraryCount(` ${smiles(half - 1)}`) + libraryCount(smiles(1)),
    )
  })

  it('counts special-token text as ordinary text instead of throwing, wherever it sits', () => {
    const long = 'b'.repeat(50_000)
    expect(() => libraryCount('<|endoftext|>')).toThrow()
    expect(countTokens('say <|endoftext|> or <|im_start|>')).toBe(
      ordinaryCount('say <|endoftext|> or <|im_start|>'),
    )
    expect(countTokens(`${long}<|endoftext|>`)).toBe(
      countTokens(long) + ordinaryCount('<|endoftext|>'),
    )
  })

  it.skipIf(!HAS_SHARED)('equals the library on the real conversations and transcripts', () => {
    const files = [
      ...readdirSync(LOCOMO_DIR)
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(LOCOMO_DIR, name)),
      ...readdirSync(TRANSCRIPTS_DIR, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith('.jsonl'))
        .slice(0, 3)
        .map((name) => join(TRANSCRIPTS_DIR, name)),
    ]
    expect(files.length).toBeGreaterThan(5)
    for (const file of files) {
      for (const line of readFileSync(file, 'utf8').split('\n').slice(0, 400)) {
        expect(countTokens(line)).toBe(line.length === 0 ? 0 : ordinaryCount(line))
      }
    }
  })
})
