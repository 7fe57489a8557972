/**
 * A markdown file as frontmatter plus `## ` sections, for edits that touch one section and leave
 * every other byte as it was (so a second run, or a human's own edits, survive untouched).
 */

/** One `## Heading` section: the heading text and the lines under it (without the heading). */
export interface MarkdownSection {
  heading: string
  lines: string[]
}

/** A parsed markdown file. Rendering an unmodified document gives back the original text. */
export interface MarkdownDocument {
  /** The text between the opening and closing `---` (null when there is no frontmatter). */
  frontmatter: string | null
  /** Lines before the first `## ` heading (title, intro). */
  preamble: string[]
  sections: MarkdownSection[]
  /** Whether the source ended with a newline. */
  trailingNewline: boolean
}

const FRONTMATTER = /^---\n([\s\S]*?)\n---\n?/
const PLACEHOLDER = /^[-*] _?\([^)]*\)_?$/

/** Splits `text` into frontmatter, preamble and `## ` sections. */
export function parseMarkdown(text: string): MarkdownDocument {
  const normalized = text.replace(/\r\n/g, '\n')
  const match = FRONTMATTER.exec(normalized)
  const frontmatter = match ? (match[1] ?? '') : null
  const body = match ? normalized.slice(match[0].length) : normalized
  const trailingNewline = normalized.endsWith('\n')
  const lines = body === '' ? [] : (body.endsWith('\n') ? body.slice(0, -1) : body).split('\n')
  const document: MarkdownDocument = { frontmatter, preamble: [], sections: [], trailingNewline }
  let current: MarkdownSection | null = null
  for (const line of lines) {
    const heading = /^## (.*)$/.exec(line)
    if (heading) {
      current = { heading: (heading[1] ?? '').trim(), lines: [] }
      document.sections.push(current)
    } else if (current) current.lines.push(line)
    else document.preamble.push(line)
  }
  return document
}

/** Turns a document back into text. */
export function renderMarkdown(document: MarkdownDocument): string {
  const parts: string[] = []
  if (document.frontmatter !== null) parts.push('---', document.frontmatter, '---')
  parts.push(...document.preamble)
  for (const section of document.sections) parts.push(`## ${section.heading}`, ...section.lines)
  const text = parts.join('\n')
  return document.trailingNewline ? `${text}\n` : text
}

/** The section with this heading (case-insensitive), created at the end when missing. */
export function ensureSection(document: MarkdownDocument, heading: string): MarkdownSection {
  const wanted = heading.toLowerCase()
  const found = document.sections.find((section) => section.heading.toLowerCase() === wanted)
  if (found) return found
  const last = document.sections.at(-1)
  if (last && last.lines.at(-1) !== '') last.lines.push('')
  else if (!last && document.preamble.length > 0 && document.preamble.at(-1) !== '') {
    document.preamble.push('')
  }
  const section: MarkdownSection = { heading, lines: [] }
  document.sections.push(section)
  return section
}

/**
 * Puts `items` at the top of the section's list (newest first, the seeds' LIFO rule), after any
 * leading blank line or HTML comment, so the section's own guidance stays above the list.
 */
export function prependListItems(section: MarkdownSection, items: string[]): void {
  if (items.length === 0) return
  let index = 0
  while (index < section.lines.length) {
    const line = section.lines[index] ?? ''
    if (line.trim() === '' || line.trim().startsWith('<!--') || /^_.*_$/.test(line.trim()))
      index += 1
    else break
  }
  // Template placeholders, bullets wholly in parentheses ("- (Open bugs and their status)"),
  // give way to the first real entry.
  const following = section.lines.slice(index).filter((line) => !PLACEHOLDER.test(line.trim()))
  const blankBefore = index > 0 && section.lines[index - 1]?.trim() !== '' ? [''] : []
  // A list right above a sub-heading (`### 2026-11-21 - Initialized`) would read as part of the
  // entry before it: a blank line keeps them apart.
  if (/^#{3,6}\s/.test(following[0] ?? '')) following.unshift('')
  const endedBlank = section.lines.at(-1)?.trim() === ''
  section.lines = [...section.lines.slice(0, index), ...blankBefore, ...items, ...following]
  // Keep the blank line that separated this section from the next heading.
  if (endedBlank && section.lines.at(-1)?.trim() !== '') section.lines.push('')
}
