import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  clip,
  firstContentLine,
  firstParagraph,
  inlineText,
  insertLifoEntry,
  neutraliseComments,
  sectionBody,
} from './markdown-text.ts'

describe('sectionBody', () => {
  it('returns the text under a level-2 heading up to the next one', () => {
    const text = '# T\n\n## Why\n\nBecause.\n### Detail\nmore\n## Log\n- x'
    expect(sectionBody(text, 'why')).toBe('\nBecause.\n### Detail\nmore')
    expect(sectionBody(text, 'Missing')).toBeNull()
  })
})

describe('firstContentLine and firstParagraph', () => {
  it('skip blanks, comments and placeholders', () => {
    expect(firstContentLine('\n<!-- c -->\n(placeholder)\n  Real line  \nnext')).toBe('Real line')
    expect(firstContentLine('\n(only a placeholder)\n')).toBeNull()
  })

  it('joins the first prose paragraph and clips it at a word', () => {
    expect(firstParagraph('# Title\n\nOne two\nthree.\n\nSecond.', 300)).toBe('One two three.')
    expect(firstParagraph('alpha beta gamma delta', 12)).toBe('alpha beta…')
    expect(firstParagraph('\n\n', 10)).toBeNull()
  })
})

describe('clip', () => {
  it('flattens whitespace and never exceeds the limit', () => {
    expect(clip('a\n b\tc', 10)).toBe('a b c')
    for (const max of [1, 2, 5, 13])
      expect(clip('x'.repeat(40), max).length).toBeLessThanOrEqual(max)
  })

  it('cuts a long text as if all of it had been flattened', () => {
    // The reference: flatten everything, then cut (what clip did before it looked at prefixes).
    const reference = (text: string, max: number) => {
      const flat = text.replace(/\s+/g, ' ').trim()
      if (flat.length <= max) return flat
      if (max < 2) return flat.slice(0, Math.max(0, max))
      const cut = flat.slice(0, max - 1)
      const space = cut.lastIndexOf(' ')
      return `${(space > (max - 1) * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
    }
    const piece = fc.constantFrom('word', ' ', '\n\n', '\t', 'x'.repeat(30), '  \u00a0 ', 'é')
    const text = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 60 }), (value, max) => {
        expect(clip(value, max)).toBe(reference(value, max))
      }),
      { numRuns: 500 },
    )
  })
})

describe('insertLifoEntry', () => {
  it('puts the entry above the newest one, after the LIFO comment', () => {
    const text = '## Log\n<!-- LIFO: newest entry at top -->\n\n- old\n'
    expect(insertLifoEntry(text, 'Log', '- new')).toBe(
      '## Log\n<!-- LIFO: newest entry at top -->\n\n- new\n- old\n',
    )
  })

  it('fills an empty section and keeps the next heading apart', () => {
    expect(insertLifoEntry('## Log\n<!-- c -->\n\n## Next\n', 'Log', '- new')).toBe(
      '## Log\n<!-- c -->\n\n- new\n\n## Next\n',
    )
    expect(insertLifoEntry('## Log\n', 'Log', '- new')).toBe('## Log\n\n- new\n')
  })

  it('adds the section when missing', () => {
    expect(insertLifoEntry('body\n', 'Log', '- new')).toBe(
      'body\n\n## Log\n<!-- LIFO: newest entry at top -->\n\n- new\n',
    )
  })
})

describe('inlineText and neutraliseComments', () => {
  it('collapse newlines and defuse comment openers and closers, keeping the words', () => {
    expect(inlineText('Login form\n## Injected\r\n# Title  ')).toBe(
      'Login form ## Injected # Title',
    )
    expect(inlineText('keep <!-- this --> visible')).toBe('keep &lt;!-- this --&gt; visible')
    expect(neutraliseComments('a\n<!--b-->\nc')).toBe('a\n&lt;!--b--&gt;\nc')
  })

  it('leave no comment opener or closer and no line break in any text, and change nothing twice', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'<!->\n a#') }), (text) => {
        const inline = inlineText(text)
        expect(inline).not.toMatch(/<!--|-->|\n/)
        expect(inlineText(inline)).toBe(inline)
      }),
    )
  })
})
