/** Corrections: which current memory lines a new fact replaces (the REM-sleep "update" step). */

import {
  citedSources,
  contradiction,
  factsOf,
} from '../../../engine/core/extractive/similar-lines.ts'
import type { parseMarkdown } from '../markdown/markdown-document.ts'
import type { ArchivedSection } from './archive-overflow.ts'

const LIST_ITEM = /^\s*[-*] /

/**
 * Takes out of `document` (every section: a fact may have been filed under another heading) the
 * list lines that `text` corrects, and returns them with the sources they cite, which the new line
 * cites too, so nothing loses its provenance. A flipped negation always corrects; another number,
 * version or name corrects only when the new fact is `authoritative` (a bookmark or the user's own
 * words): an agent restating a value from memory is as likely wrong as the line it would replace.
 */
export function supersedeLines(
  document: ReturnType<typeof parseMarkdown>,
  text: string,
  authoritative: boolean,
): { archived: ArchivedSection[]; sources: string[] } {
  const newer = factsOf(text)
  const corrects = (line: string) => {
    if (!LIST_ITEM.test(line)) return false
    const kind = contradiction(newer, factsOf(line))
    return kind === 'negation' || (kind === 'value' && authoritative)
  }
  const archived: ArchivedSection[] = []
  for (const section of document.sections) {
    const lines = section.lines.filter(corrects)
    if (lines.length === 0) continue
    section.lines = section.lines.filter((line) => !corrects(line))
    archived.push({ section: section.heading, lines, reason: 'superseded' })
  }
  const sources = archived.flatMap((part) => part.lines.flatMap(citedSources))
  return { archived, sources: [...new Set(sources)] }
}
