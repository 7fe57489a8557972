import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ensureSection,
  parseMarkdown,
  prependListItems,
  renderMarkdown,
} from './markdown-document.ts'

const MEMORY = `---
name: Memory
updated: 2026-01-01
---
# Memory

## Active Memory
<!-- newest first -->

- old fact

## Known Issues
- (Open bugs and their status)
`

describe('markdown document', () => {
  it('renders an untouched document byte for byte', () => {
    expect(renderMarkdown(parseMarkdown(MEMORY))).toBe(MEMORY)
  })

  it('round-trips any text made of lines, headings and frontmatter', () => {
    const line = fc.oneof(
      fc.constantFrom('## A', '## B', '', '- item', '# Title', 'text', '---'),
      fc.string({ maxLength: 8 }).map((text) => text.replace(/[\r\n]/g, '')),
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.boolean(), (lines, newline) => {
        const text = lines.join('\n') + (newline && lines.length > 0 ? '\n' : '')
        expect(renderMarkdown(parseMarkdown(text))).toBe(text)
      }),
    )
  })

  it('prepends below the section comment, newest first, and drops the placeholder', () => {
    const document = parseMarkdown(MEMORY)
    prependListItems(ensureSection(document, 'Active Memory'), ['- new fact'])
    prependListItems(ensureSection(document, 'known issues'), ['- flaky test'])
    const text = renderMarkdown(document)
    expect(text).toContain('<!-- newest first -->\n\n- new fact\n- old fact\n')
    expect(text).toContain('## Known Issues\n- flaky test\n')
    expect(text).not.toContain('(Open bugs and their status)')
  })

  it('creates a missing section at the end, after a blank line', () => {
    const document = parseMarkdown(MEMORY)
    prependListItems(ensureSection(document, 'Technical Decisions'), ['- use PGlite'])
    expect(renderMarkdown(document)).toMatch(
      /- flaky test|\(Open bugs and their status\)\n\n## Technical Decisions\n- use PGlite\n$/,
    )
  })
})
