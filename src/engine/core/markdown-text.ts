/** Just enough markdown for brain files: sections, first lines and paragraphs, LIFO inserts. */

/** The text under `## heading` up to the next heading of level 1 or 2, or null when absent. */
export function sectionBody(markdown: string, heading: string): string | null {
  const lines = markdown.split(/\r?\n/)
  const wanted = heading.trim().toLowerCase()
  const start = lines.findIndex(
    (line) => /^##\s/.test(line) && line.slice(2).trim().toLowerCase() === wanted,
  )
  if (start === -1) return null
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => /^#{1,2}\s/.test(line))
  return (end === -1 ? rest : rest.slice(0, end)).join('\n')
}

/** True for lines that carry no content of their own: blanks, comments, `(placeholders)`. */
function isFiller(line: string): boolean {
  const trimmed = line.trim()
  return trimmed === '' || trimmed.startsWith('<!--') || trimmed.startsWith('(')
}

/** The first line of real content (no blanks, comments or `(placeholder)` lines), or null. */
export function firstContentLine(text: string): string | null {
  const line = text.split(/\r?\n/).find((candidate) => !isFiller(candidate))
  return line === undefined ? null : line.trim()
}

/**
 * The first paragraph of prose, as one line: skips headings, comments and placeholders, joins the
 * paragraph's lines with spaces and clips it to `maxChars` at a word boundary.
 */
export function firstParagraph(text: string, maxChars: number): string | null {
  const paragraph: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim()
    if (
      paragraph.length === 0 &&
      (isFiller(line) || trimmed.startsWith('#') || trimmed === '---')
    ) {
      continue
    }
    if (trimmed === '' || trimmed.startsWith('#')) break
    paragraph.push(trimmed)
  }
  return paragraph.length === 0 ? null : clip(paragraph.join(' '), maxChars)
}

/**
 * User text made safe to land in markdown: `<!--` and `-->` lose their meaning, so a bookmark or a
 * task log cannot open a comment that swallows what follows (provenance) or close one early.
 */
export function neutraliseComments(text: string): string {
  return text.replaceAll('<!--', '&lt;!--').replaceAll('-->', '--&gt;')
}

/**
 * User text for a single-line context (a list item, a heading, a line with a provenance comment):
 * newlines collapsed, so it cannot start headings or lines of its own, and comments neutralised.
 */
export function inlineText(text: string): string {
  return neutraliseComments(text.replace(/\s+/g, ' ').trim())
}

/** `text` flattened to one line and cut to at most `maxChars`, at a word when one is near. */
export function clip(text: string, maxChars: number): string {
  // Only the start can be shown, so a long text is flattened only as far as needed (snapshots
  // clip hundreds of texts). Flattening a prefix gives a prefix of the flattened whole; when it
  // has more than `maxChars` characters before its trailing space, it decides the same cut.
  const headLength = 2 * maxChars + 64
  if (text.length > headLength) {
    const head = text.slice(0, headLength).replace(/\s+/g, ' ').trimStart()
    if (head.trimEnd().length > maxChars) return cutFlat(head, maxChars)
  }
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= maxChars) return flat
  return cutFlat(flat, maxChars)
}

/** A flattened text longer than `maxChars`, cut at a word when one is near, with an ellipsis. */
function cutFlat(flat: string, maxChars: number): string {
  if (maxChars < 2) return flat.slice(0, Math.max(0, maxChars))
  const room = maxChars - 1
  const cut = flat.slice(0, room)
  const space = cut.lastIndexOf(' ')
  return `${(space > room * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`
}

/**
 * Puts `entry` at the top of the `## heading` section (newest first), after any leading comment
 * such as `<!-- LIFO: newest entry at top -->`. Appends the section when the file has none.
 */
export function insertLifoEntry(markdown: string, heading: string, entry: string): string {
  const lines = markdown.split('\n')
  const wanted = heading.trim().toLowerCase()
  const start = lines.findIndex(
    (line) => /^##\s/.test(line) && line.slice(2).trim().toLowerCase() === wanted,
  )
  if (start === -1) {
    const base = markdown.replace(/\s*$/, '')
    return `${base}\n\n## ${heading}\n<!-- LIFO: newest entry at top -->\n\n${entry}\n`
  }
  let end = lines.findIndex((line, index) => index > start && /^#{1,2}\s/.test(line))
  if (end === -1) end = lines.length
  let lastPreamble = start
  for (let index = start + 1; index < end; index += 1) {
    const trimmed = lines[index]?.trim() ?? ''
    if (trimmed === '') continue
    if (!trimmed.startsWith('<!--')) {
      lines.splice(index, 0, entry)
      return lines.join('\n')
    }
    lastPreamble = index
  }
  lines.splice(lastPreamble + 1, end - lastPreamble - 1, '', entry, '')
  return lines.join('\n')
}
