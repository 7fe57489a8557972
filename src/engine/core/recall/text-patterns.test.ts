import { describe, expect, it } from 'vitest'
import { normalizedText } from './brain-entries.ts'
import { recallTerms } from './recall-terms.ts'
import { snippetOf } from './snippet.ts'
import { isPlainText, PLAIN_MARKS } from './text-patterns.ts'

/** recallTerms as it was written before the plain form, on the Unicode patterns only. */
function unicodeTerms(text: string, stemOf: (word: string) => string[]): string[] {
  const terms: string[] = []
  for (const compound of text.match(/[\p{L}\p{N}]+(?:[_.\-/:'’]*[\p{L}\p{N}]+)*/gu) ?? []) {
    if (compound.length > 80) continue
    const parts = compound
      .split(/[_.\-/:'’]+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u)
      .filter((part) => part !== '')
    if (parts.length > 1) {
      const whole = compound.toLowerCase().replace(/’/g, "'")
      if (!/^[\p{L}]+'[\p{L}]{1,2}$/u.test(whole) && whole.length <= 40) terms.push(whole)
    }
    for (const part of parts) terms.push(...stemOf(part))
  }
  return terms
}

const SAMPLES = [
  'Why did the SQLite migration fail, and how was the ALTER TABLE problem fixed?',
  'load_session_messages → TranscriptComputers; spotter-fum.5 (gqc.4) HTTPServer vs. XMLHttpRequest2',
  'The user’s “review” token… don’t re-use it — it’s one-time; 87 tests • 0 failures ± 2 × 3°',
  "it's a/b c:d e/f_g ALLCaps mixedCASEWord v2Beta 10.0.1 ≥ ≤ ≠ ✅ ✓ ✗ ❌ ⚠ § · 3 critical (★★★) ☆",
  'café naïve Ångström 東京 ２０２６ ½ ² — Unicode letters and digits take the Unicode path',
]

describe('recall text patterns', () => {
  it('lists only marks that are neither letters nor digits', () => {
    for (const mark of PLAIN_MARKS) expect(/[\p{L}\p{N}]/u.test(mark)).toBe(false)
  })

  it('tells plain text from text with letters or digits outside ASCII', () => {
    expect(SAMPLES.slice(0, 4).map(isPlainText)).toEqual([true, true, true, true])
    expect(isPlainText(SAMPLES[4] ?? '')).toBe(false)
    expect(isPlainText('emoji 🚀 is outside the marks')).toBe(false)
  })

  it('gives the terms and normal forms the Unicode patterns give', () => {
    // Each word's own terms, as recallTerms gives them for one plain word (stems, stop words out).
    const stemOf = (word: string) => recallTerms(word.replace(/[^\p{L}\p{N}]/gu, ''))
    for (const sample of SAMPLES) {
      expect(recallTerms(sample)).toEqual(unicodeTerms(sample, stemOf))
      expect(normalizedText(sample)).toBe(
        sample
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim(),
      )
    }
  })

  it('finds the same words for a snippet in plain and Unicode text', () => {
    const text = `${'padding words here '.repeat(20)}the SQLite migration failed → fixed by a table rewrite ${'more padding '.repeat(20)}`
    expect(snippetOf(text, recallTerms('sqlite migration'), 80)).toContain('SQLite migration')
    const accented = text.replace('padding', 'café')
    expect(snippetOf(accented, recallTerms('sqlite migration'), 80)).toContain('SQLite migration')
  })
})
