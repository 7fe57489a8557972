/**
 * The anti-bloat pass: a core file over its line limit moves its oldest list entries (the bottom
 * of its newest-first sections) to a knowledge archive. Nothing is deleted; the file gets short.
 */
import { parseMarkdown, renderMarkdown } from '../markdown/markdown-document.ts'

/** Seed 001's ceiling for a core file. */
export const MAX_CORE_FILE_LINES = 200

/** What moved out of a file, by section, oldest last. */
export interface ArchivedSection {
  section: string
  lines: string[]
  /** Why the lines moved: `archived` (the file was too long) unless said otherwise. */
  reason?: 'archived' | 'superseded' | 'resolved'
}

const LIST_ITEM = /^\s*[-*] /

/** Shrinks `text` to at most `maxLines` lines by moving old list items out; returns both parts. */
export function archiveOverflow(
  text: string,
  maxLines: number,
): { text: string; archived: ArchivedSection[] } {
  const document = parseMarkdown(text)
  let excess = lineCount(text) - maxLines
  const moved = new Map<string, string[]>()
  while (excess > 0) {
    // Take from the section with the most entries: it has the most history to spare.
    const section = [...document.sections]
      .filter((candidate) => candidate.lines.some((line) => LIST_ITEM.test(line)))
      .sort((left, right) => countItems(right.lines) - countItems(left.lines))[0]
    if (!section || countItems(section.lines) <= 1) break
    const index = section.lines.findLastIndex((line) => LIST_ITEM.test(line))
    const [line] = section.lines.splice(index, 1)
    moved.set(section.heading, [line ?? '', ...(moved.get(section.heading) ?? [])])
    excess -= 1
  }
  const archived = [...moved].map(([section, lines]) => ({ section, lines }))
  return { text: archived.length === 0 ? text : renderMarkdown(document), archived }
}

/** Appends archived sections to an archive document (creating it), newest batch first. */
export function appendToArchive(
  existing: string | null,
  input: { sourcePath: string; date: string; archived: ArchivedSection[] },
): string {
  const header =
    existing ??
    [
      '---',
      `title: Archive of ${input.sourcePath}`,
      `summary: Entries moved out of ${input.sourcePath} to keep it under ${MAX_CORE_FILE_LINES} lines, or replaced by a correction`,
      'tags: [archive]',
      `created: ${input.date}`,
      '---',
      `# Archive of ${input.sourcePath}`,
      '',
      `Older entries that \`somnus sleep run\` moved out of ${input.sourcePath}. Newest batch first.`,
      '',
    ].join('\n')
  const document = parseMarkdown(header.endsWith('\n') ? header : `${header}\n`)
  const batch = input.archived.map((part) => ({
    heading: `${part.section} (${part.reason ?? 'archived'} ${input.date})`,
    lines: [...part.lines, ''],
  }))
  document.sections = [...batch, ...document.sections]
  document.trailingNewline = true
  return renderMarkdown(document)
}

function countItems(lines: readonly string[]): number {
  return lines.filter((line) => LIST_ITEM.test(line)).length
}

/** Lines of a text as an editor counts them (a final newline does not start a new line). */
export function lineCount(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}
