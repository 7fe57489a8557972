/**
 * What recall indexes of a brain's files: one entry per line of a markdown document (headings
 * become the lines' context, provenance comments their sources), one per item of a JSON list
 * (the changelog), one per stretch of user or assistant text in a transcript (never tool calls or
 * tool output: those are not anyone's words). Every text passes the redaction step first, so the
 * index never holds a secret the files might.
 */

import { redactSecrets } from '../redact-secrets.ts'
import type { RecallEntry } from './recall-entry.ts'
import { recallTerms } from './recall-terms.ts'
import { patternsFor } from './text-patterns.ts'

/** One file to index: where it is shown from, what kind of memory it holds, its text. */
export interface SourceText {
  /** Shown in every hit's location (`_agent_context/core/2.memory.md`, an absolute path). */
  path: string
  kind: string
  text: string
}

const DATE = /\b(\d{4}-\d{2}-\d{2})\b/
const COMMENT = /<!--([\s\S]*?)-->/g
const HEADING = /^(#{1,6})\s+(.*)$/
const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/

/**
 * The text a line of markdown is indexed and checked by: comments and list markers dropped,
 * whitespace folded. The same function reads the file again before a hit is shown.
 */
export function lineText(line: string): string {
  return line.replace(COMMENT, ' ').replace(BULLET, '').replace(/\s+/g, ' ').trim()
}

/** The form two texts are compared in: lowercase letters and digits, single spaces. */
export function normalizedText(text: string): string {
  return text.toLowerCase().replace(patternsFor(text).nonWord, ' ').trim()
}

/** Provenance ids in a line's comments: `session:<id>` and message id prefixes (8+ hex digits). */
function commentSources(line: string): string[] {
  const found: string[] = []
  for (const match of line.matchAll(COMMENT)) {
    for (const token of (match[1] ?? '').split(/[\s,;]+/)) {
      const bare = token.replace(/^(session|src|sources):/, '')
      if (token.startsWith('session:') || /^[0-9a-f]{8}[0-9a-f-]*$/.test(bare)) found.push(bare)
    }
  }
  return found
}

/** The frontmatter's fields that place a document (as plain `key: value` lines), and its length. */
function frontmatter(lines: readonly string[]): { fields: Map<string, string>; length: number } {
  const fields = new Map<string, string>()
  if (lines[0]?.trimEnd() !== '---') return { fields, length: 0 }
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index] ?? ''
    if (/^(---|\.\.\.)\s*$/.test(line)) return { fields, length: index + 1 }
    const match = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line)
    if (match?.[1]) fields.set(match[1], (match[2] ?? '').replace(/^["']|["']$/g, ''))
  }
  return { fields: new Map(), length: 0 }
}

/** One entry per line of a markdown (or other text) document that holds a searchable word. */
export function markdownEntries(source: SourceText): RecallEntry[] {
  const lines = source.text.split(/\r?\n/)
  const { fields, length } = frontmatter(lines)
  const title = fields.get('title') ?? fields.get('name') ?? ''
  const documentDate =
    DATE.exec(fields.get('date') ?? '')?.[1] ??
    DATE.exec(fields.get('updated') ?? '')?.[1] ??
    DATE.exec(fields.get('created') ?? '')?.[1] ??
    null
  const session = fields.get('session')
  const headings: string[] = []
  let headingDate: string | null = null
  let inComment = false
  let inFence = false
  const entries: RecallEntry[] = []
  for (let index = length; index < lines.length; index += 1) {
    const raw = lines[index] ?? ''
    if (inComment) {
      if (raw.includes('-->')) inComment = false
      continue
    }
    if (/^\s*<!--/.test(raw) && !raw.includes('-->')) {
      inComment = true
      continue
    }
    if (/^\s*(```|~~~)/.test(raw)) inFence = !inFence
    const heading = inFence ? null : HEADING.exec(raw)
    if (heading) {
      const level = heading[1]?.length ?? 1
      headings.length = Math.min(headings.length, level - 1)
      headings[level - 1] = lineText(heading[2] ?? '')
      headingDate = DATE.exec(heading[2] ?? '')?.[1] ?? (level <= 2 ? null : headingDate)
      continue
    }
    const text = redactSecrets(lineText(raw))
    if (recallTerms(text).length === 0) continue
    const sources = commentSources(raw)
    if (session && !sources.includes(session)) sources.unshift(session)
    const location = `${source.path}:${index + 1}`
    entries.push({
      id: location,
      kind: source.kind,
      location,
      text,
      context: [title, ...headings.filter(Boolean)].join(' · '),
      date:
        headingDate ?? documentDate ?? DATE.exec(raw.match(COMMENT)?.join(' ') ?? '')?.[1] ?? null,
      sources,
    })
  }
  return entries
}

/**
 * One entry per item of a JSON list (CHANGELOG.json, RELEASES.json): its string fields joined,
 * located at the line the item starts on. A file that is not a JSON list gives none.
 */
export function jsonListEntries(source: SourceText): RecallEntry[] {
  let items: unknown
  try {
    items = JSON.parse(source.text)
  } catch {
    return []
  }
  if (!Array.isArray(items)) return []
  const starts: number[] = []
  source.text.split(/\r?\n/).forEach((line, index) => {
    if (/^\s{0,4}\{/.test(line)) starts.push(index + 1)
  })
  return items.flatMap((item, position) => {
    if (typeof item !== 'object' || item === null) return []
    const record = item as Record<string, unknown>
    const strings = Object.entries(record)
      .filter(([key, value]) => typeof value === 'string' && key !== 'date')
      .map(([, value]) => value as string)
    const text = redactSecrets(strings.join(' — ').replace(/\s+/g, ' ').trim())
    if (recallTerms(text).length === 0) return []
    const location = `${source.path}:${starts[position] ?? 1}`
    const sources = Array.isArray(record.sources)
      ? record.sources.filter((value): value is string => typeof value === 'string')
      : []
    const date = typeof record.date === 'string' ? (DATE.exec(record.date)?.[1] ?? null) : null
    return [{ id: location, kind: source.kind, location, text, date, sources }]
  })
}
