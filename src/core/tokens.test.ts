/** countTokens sums cached pieces: it must agree with the BPE library on every text. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { HAS_SHARED, LOCOMO_DIR, TRANSCRIPTS_DIR } from '../../test/support/shared-data.ts'
import { countTokens } from './tokens.ts'

describe('countTokens', () => {
  it('equals the library on any text: words, digits, punctuation runs, newlines, any Unicode', () => {
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
        let expected: number | Error
        try {
          expected = libraryCount(text)
        } catch (error) {
          expected = error as Error
        }
        if (expected instanceof Error) expect(() => countTokens(text)).toThrow()
        else expect(countTokens(text)).toBe(text.length === 0 ? 0 : expected)
      }),
      { numRuns: 2000 },
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
        expect(countTokens(line)).toBe(line.length === 0 ? 0 : libraryCount(line))
      }
    }
  })
})
