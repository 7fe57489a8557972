/**
 * The `core/` folder: soul, user and memory load in full; files 3 and up are listed by their
 * frontmatter `summary`; CHANGELOG.json and RELEASES.json are newest-first JSON arrays.
 */
import { SomnusError } from './errors.ts'
import { fieldText, parseFrontmatter } from './frontmatter.ts'

/** The core files the snapshot loads in full, in seed 001's order (docs/design/origins.md). */
export const HEAD_CORE_FILES = {
  soul: 'core/0.soul.md',
  user: 'core/1.user.md',
  memory: 'core/2.memory.md',
} as const

/** A core file beyond soul, user and memory, as the "Extended Core Files" index shows it. */
export interface CoreIndexEntry {
  file: string
  name: string
  summary: string | null
}

/** True for `core/` file names the extended index lists: `3.` and up, not JSON data files. */
export function isExtendedCoreFile(fileName: string): boolean {
  return /^[3-9]\d*\./.test(fileName) || /^[1-9]\d+\./.test(fileName)
}

/**
 * Reads the name and summary of an extended core file: frontmatter for markdown, and for other
 * files (`5.data_structures.sql`) leading comment lines of the form `-- key: value`.
 */
export function parseCoreIndexEntry(fileName: string, text: string): CoreIndexEntry {
  const fallbackName = fileName
    .replace(/^\d+\./, '')
    .replace(/\.\w+$/, '')
    .replace(/_/g, ' ')
  const data = fileName.endsWith('.md') ? parseFrontmatter(text).data : commentHeader(text)
  return {
    file: `core/${fileName}`,
    name: fieldText(data, 'name') ?? fallbackName,
    summary: fieldText(data, 'summary'),
  }
}

function commentHeader(text: string): Record<string, string> {
  const data: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('--') && !line.startsWith('#')) break
    const match = /^(?:--|#)\s*([a-z_]+)\s*:\s*(.+)$/.exec(line)
    if (match?.[1] && match[2]) data[match[1]] = match[2].trim()
  }
  return data
}

/** The change types `core changelog add --type` accepts. */
export const CHANGE_TYPES = ['feat', 'fix', 'refactor', 'docs', 'chore'] as const
/** A change type. */
export type ChangeType = (typeof CHANGE_TYPES)[number]

/** One line of the project changelog. */
export interface ChangelogEntry {
  date: string
  type: string
  message: string
}

/** One release, newest first in RELEASES.json. */
export interface ReleaseEntry {
  version: string
  date: string
  summary: string
  breaking: boolean
}

/** Parses a JSON array file; a missing file is []; anything else is an error naming the fix. */
export function parseJsonArray(text: string | null, path: string): unknown[] {
  if (text === null || text.trim() === '') return []
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${path} is not valid JSON: fix it by hand (it should be a JSON array, newest entry first) or replace it with [].`,
      { cause: error },
    )
  }
  if (!Array.isArray(parsed)) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${path} must hold a JSON array (newest entry first): wrap the content in [ ] or replace it with [].`,
    )
  }
  return parsed
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '')

/** Changelog entries from a parsed array; agentcontext's `{scope, description}` rows read too. */
export function changelogEntries(rows: unknown[]): ChangelogEntry[] {
  return rows.filter(isRecord).map((row) => {
    const scope = text(row.scope)
    const message = text(row.message) || text(row.description)
    return {
      date: text(row.date),
      type: text(row.type),
      message: scope ? `${scope}: ${message}` : message,
    }
  })
}

/** Release entries from a parsed array. */
export function releaseEntries(rows: unknown[]): ReleaseEntry[] {
  return rows.filter(isRecord).map((row) => ({
    version: text(row.version),
    date: text(row.date),
    summary: text(row.summary),
    breaking: row.breaking === true,
  }))
}

/** The changelog file text with `entry` added at the top, kept rows untouched. */
export function addChangelogEntry(rows: unknown[], entry: ChangelogEntry): string {
  return `${JSON.stringify([entry, ...rows], null, 2)}\n`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
