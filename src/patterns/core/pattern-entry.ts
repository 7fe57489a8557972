/**
 * One learned pattern as seed 002 (item 7) stores it (docs/design/origins.md): a YAML frontmatter
 * block (domain, date, tags, sources) followed by `### Title` and the Observation / Details /
 * Context bullets. A domain file `<patterns dir>/<project-id>/<domain>.md` holds its entries one
 * after the other.
 */
import { fieldList, fieldText, parseFrontmatter } from '../../engine/core/frontmatter.ts'
import { inlineText } from '../../engine/core/markdown-text.ts'

/** Seed 002's nine kinds of learning. */
export const PATTERN_CATEGORIES = [
  'debugging-insight',
  'tool-failure',
  'workaround',
  'gotcha',
  'convention',
  'user-preference',
  'brand-voice',
  'effective-approach',
  'architectural-decision',
] as const

/** One of the nine categories. */
export type PatternCategory = (typeof PATTERN_CATEGORIES)[number]

/** A pattern entry as stored. `status: superseded` keeps a contradicted entry, linked to its successor. */
export interface PatternEntry {
  /** `<date>-<8 hex>`: stable, so supersede links and skill citations can name it. */
  id: string
  domain: string
  /** YYYY-MM-DD, the day it was encoded. */
  date: string
  category: PatternCategory
  tags: string[]
  /** The session id first, then the transcript record uuids the entry came from. */
  sources: string[]
  status: 'active' | 'superseded'
  /** The entry that replaced this one (superseded entries only). */
  supersededBy?: string
  /** The entry this one replaced. */
  supersedes?: string
  title: string
  observation: string
  details: string
  context: string
}

/** A parsed domain file: any text before the first entry (kept as written), then the entries. */
export interface PatternFile {
  preamble: string
  entries: PatternEntry[]
}

const FIELD_LINE = /^- \*\*(Observation|Details|Context)\*\*:\s?(.*)$/
/** `### 2026-02-02: Title` is seed 002's v0.4 heading; the date prefix is dropped when read. */
const TITLE_LINE = /^###\s+(?:\d{4}-\d{2}-\d{2}:\s+)?(.*)$/

/** Domains name files: lowercase words joined by hyphens. */
export function domainSlug(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return slug === '' ? 'general' : slug
}

/** Tags as the frontmatter list holds them: lowercase, no spaces, commas or brackets. */
export function tagSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9+._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
}

/**
 * A source as the frontmatter list holds it: session ids and record ids keep their case (a
 * session id with capitals is another session than its lower-case spelling), only characters
 * the list cannot hold are replaced.
 */
export function sourceSlug(text: string): string {
  return text
    .replace(/[^A-Za-z0-9+._:-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
}

/** FNV-1a over `text`, as 8 hex digits: a short stable id part (core does no crypto). */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(16).padStart(8, '0')
}

/**
 * The id an entry gets from its day, what it says and the session it came from: the same lesson
 * of the same session has the same id (a session encoded again updates its entries); the same
 * lesson of another session, a different one.
 */
export function entryId(date: string, title: string, observation: string, session = ''): string {
  return `${date}-${shortHash(`${session}\n${title}\n${observation}`)}`
}

/** Parses a domain file; blocks that are not entries stay in the preamble or are skipped. */
export function parsePatternFile(text: string, domain: string): PatternFile {
  const lines = text.replaceAll('\r\n', '\n').split('\n')
  const starts: number[] = []
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index] === '---' && /^[a-z_]+:/.test(lines[index + 1] ?? '')) {
      starts.push(index)
      // Skip to the closing line so the frontmatter's own `---` is not read as a start.
      const close = lines.indexOf('---', index + 1)
      index = close === -1 ? lines.length : close
    }
  }
  const preamble = lines.slice(0, starts[0] ?? lines.length).join('\n')
  const entries: PatternEntry[] = []
  starts.forEach((start, position) => {
    const block = lines.slice(start, starts[position + 1] ?? lines.length).join('\n')
    const entry = parseEntry(block, domain)
    if (entry) entries.push(entry)
  })
  return { preamble: starts.length === 0 ? text : preamble, entries }
}

function parseEntry(block: string, fallbackDomain: string): PatternEntry | null {
  const { data, body } = parseFrontmatter(block)
  const fields: Record<string, string> = { Observation: '', Details: '', Context: '' }
  let title = ''
  let last: string | null = null
  for (const line of body.split('\n')) {
    const heading = TITLE_LINE.exec(line)
    if (heading && title === '') {
      title = (heading[1] ?? '').trim()
      continue
    }
    const field = FIELD_LINE.exec(line)
    if (field?.[1]) {
      last = field[1]
      fields[last] = (field[2] ?? '').trim()
    } else if (last && line.trim() !== '') {
      // A hand-wrapped bullet: its continuation lines belong to it.
      fields[last] = `${fields[last]} ${line.trim()}`.trim()
    }
  }
  if (title === '' && fields.Observation === '') return null
  const date = fieldText(data, 'date') ?? '1970-01-01'
  const category = fieldText(data, 'category')
  const supersededBy = fieldText(data, 'superseded_by')
  const supersedes = fieldText(data, 'supersedes')
  return {
    id: fieldText(data, 'id') ?? entryId(date, title, fields.Observation ?? ''),
    domain: domainSlug(fieldText(data, 'domain') ?? fallbackDomain),
    date,
    category: isCategory(category) ? category : 'gotcha',
    tags: fieldList(data, 'tags'),
    sources: fieldList(data, 'sources'),
    status: fieldText(data, 'status') === 'superseded' ? 'superseded' : 'active',
    ...(supersededBy ? { supersededBy } : {}),
    ...(supersedes ? { supersedes } : {}),
    title: title || (fields.Observation ?? ''),
    observation: fields.Observation ?? '',
    details: fields.Details ?? '',
    context: fields.Context ?? '',
  }
}

function isCategory(value: string | null): value is PatternCategory {
  return (PATTERN_CATEGORIES as readonly string[]).includes(value ?? '')
}

/** One entry as text: frontmatter, title, the three bullets, each value on one line. */
export function renderPatternEntry(entry: PatternEntry): string {
  const list = (items: string[]) => `[${items.join(', ')}]`
  const lines = [
    '---',
    `id: ${entry.id}`,
    `domain: ${entry.domain}`,
    `date: ${entry.date}`,
    `category: ${entry.category}`,
    `tags: ${list(entry.tags.map(tagSlug).filter(Boolean))}`,
    `sources: ${list(entry.sources.map(sourceSlug).filter(Boolean))}`,
    `status: ${entry.status}`,
    ...(entry.supersededBy ? [`superseded_by: ${entry.supersededBy}`] : []),
    ...(entry.supersedes ? [`supersedes: ${entry.supersedes}`] : []),
    '---',
    `### ${inlineText(entry.title)}`,
    '',
    `- **Observation**: ${inlineText(entry.observation)}`,
    `- **Details**: ${inlineText(entry.details)}`,
    `- **Context**: ${inlineText(entry.context)}`,
  ]
  return `${lines.join('\n')}\n`
}

/** A whole domain file: the preamble as it was, then every entry, a blank line between. */
export function renderPatternFile(file: PatternFile): string {
  const preamble = file.preamble.trimEnd()
  const entries = file.entries.map(renderPatternEntry).join('\n')
  if (preamble === '') return entries
  return entries === '' ? `${preamble}\n` : `${preamble}\n\n${entries}`
}

/** True when the entry has all three parts (seed 002's format is only useful complete). */
export function isCompleteEntry(
  entry: Pick<PatternEntry, 'observation' | 'details' | 'context'>,
): boolean {
  return [entry.observation, entry.details, entry.context].every((part) => part.trim().length >= 8)
}
