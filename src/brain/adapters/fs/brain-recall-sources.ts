/**
 * A brain's recall sources on disk: the files under `_agent_context/` (core files and features,
 * changelog, tasks, knowledge notes and archives, session digests), the project's pattern files,
 * and the session transcripts Claude Code still keeps for the project
 * (`~/.claude/projects/<project>/*.jsonl` and their sub-agent files; it deletes them after 30
 * days, the digests stay). Brain files are read confined to the brain, never through a symlink;
 * only files of those folders are ever read, so a hit's id cannot name another file.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { confineTo } from '../../../engine/adapters/fs/confined-path.ts'
import { CONTEXT_DIR_NAME, KIND_FOLDERS } from '../../../engine/core/brain-layout.ts'
import { isExtendedCoreFile } from '../../../engine/core/core-files.ts'
import {
  jsonListEntries,
  lineText,
  markdownEntries,
  normalizedText,
} from '../../../engine/core/recall/brain-entries.ts'
import { redactSecrets } from '../../../engine/core/redact-secrets.ts'
import type { RecallEntry, RecallHit } from '../../../engine/ports/recall.ts'
import type { RecallSource, RecallSources } from '../../../engine/ports/recall-sources.ts'
import { transcriptEntries } from '../../core/recall/transcript-entries.ts'

/** Which part of the brain a set of sources covers: its files, or the transcripts beside it. */
export type BrainShelfName = 'brain' | 'transcripts'

/** Where a brain's sources are. */
export interface BrainRecallPlaces {
  /** The `_agent_context` folder. */
  root: string
  /** The project's pattern folder (user scope), or null. */
  patternsDir: string | null
  /** Claude Code's folder of the project's transcripts, or null. */
  transcriptsDir: string | null
  /** Transcripts larger than this are not indexed (the hooks' cap). */
  maxTranscriptBytes: number
}

/** A source with where its text is read from. */
interface Located extends RecallSource {
  /** `brain:<relative path>` or an absolute path outside the brain. */
  file: { brain: string } | { absolute: string }
  session?: string
}

/** A readable view of a source's current text: its lines' entries, cached by stamp. */
interface Parsed {
  stamp: string
  entries: RecallEntry[]
}

/** The recall sources of one shelf of the brain at `places`. */
export function brainRecallSources(
  places: BrainRecallPlaces,
  shelf: BrainShelfName,
): RecallSources & { read(id: string): Promise<string | null> } {
  const confined = confineTo(places.root)
  const parsed = new Map<string, Parsed>()
  let known = new Map<string, Located>()

  const listAll = (): Located[] => {
    const found = shelf === 'brain' ? brainFiles() : transcriptFiles()
    known = new Map(found.map((source) => [source.key, source]))
    return found
  }

  const brainFiles = (): Located[] => {
    const found: Located[] = []
    const add = (folder: string, kind: string, keep: (name: string) => boolean) => {
      for (const name of filesIn(confined.existingFolder(join(places.root, folder)))) {
        if (name.startsWith('.') || !keep(name)) continue
        const relative = `${folder}/${name}`
        const stamp = stampOf(join(places.root, relative))
        if (stamp === null) continue
        found.push({
          key: `${CONTEXT_DIR_NAME}/${relative}`,
          kind,
          stamp,
          file: { brain: relative },
        })
      }
    }
    add(
      'core',
      'core',
      (name) =>
        /^[0-2]\./.test(name) ||
        isExtendedCoreFile(name) ||
        /^(CHANGELOG|RELEASES)\.json$/.test(name),
    )
    add(KIND_FOLDERS.feature, 'core', (name) => name.endsWith('.md'))
    add(KIND_FOLDERS.task, 'core', (name) => name.endsWith('.md'))
    add(KIND_FOLDERS.knowledge, 'knowledge', (name) => name.endsWith('.md'))
    add(KIND_FOLDERS.digest, 'sessions', (name) => name.endsWith('.md'))
    if (places.patternsDir !== null) {
      for (const name of filesIn(places.patternsDir)) {
        if (!name.endsWith('.md') || name.startsWith('.')) continue
        const path = join(places.patternsDir, name)
        const stamp = stampOf(path)
        if (stamp !== null)
          found.push({ key: path, kind: 'patterns', stamp, file: { absolute: path } })
      }
    }
    return found
  }

  const transcriptFiles = (): Located[] => {
    const folder = places.transcriptsDir
    if (folder === null) return []
    const found: Located[] = []
    const add = (path: string, session: string) => {
      const stamp = stampOf(path, places.maxTranscriptBytes)
      if (stamp !== null)
        found.push({ key: path, kind: 'transcripts', stamp, file: { absolute: path }, session })
    }
    for (const name of filesIn(folder)) {
      if (!name.endsWith('.jsonl')) continue
      const session = name.slice(0, -'.jsonl'.length)
      add(join(folder, name), session)
      const subagents = join(folder, session, 'subagents')
      for (const sub of filesIn(subagents))
        if (sub.endsWith('.jsonl')) add(join(subagents, sub), session)
    }
    return found
  }

  const textOf = (source: Located): string | null => {
    if ('brain' in source.file) return confined.readText(confined.resolve(source.file.brain))
    try {
      return readFileSync(source.file.absolute, 'utf8')
    } catch {
      return null
    }
  }

  const entriesOf = (source: Located): RecallEntry[] => {
    const cached = parsed.get(source.key)
    if (cached?.stamp === source.stamp) return cached.entries
    const text = textOf(source)
    if (text === null) return []
    const input = { path: source.key, kind: source.kind, text }
    const entries =
      source.kind === 'transcripts'
        ? transcriptEntries({ ...input, session: source.session ?? basename(source.key) })
        : source.key.endsWith('.json')
          ? jsonListEntries(input)
          : markdownEntries(input)
    // Transcripts are large and append-only: their entries are not kept in memory.
    if (source.kind !== 'transcripts') parsed.set(source.key, { stamp: source.stamp, entries })
    return entries
  }

  /**
   * The source a hit's location or an id names, as it is now, or null when the name is none of
   * this shelf's files (so an id can never open another file). Worked out from the name itself:
   * listing a thousand digests to find one would cost the prompt hook more than its search.
   */
  const sourceAt = (place: string): Located | null => {
    const key = place.replace(/(:\d+|#.*)$/, '')
    const located = shelf === 'brain' ? brainSourceAt(key) : transcriptSourceAt(key)
    if (located === null) return null
    const stamp =
      'brain' in located.file
        ? stampOf(join(places.root, located.file.brain))
        : stampOf(located.file.absolute, places.maxTranscriptBytes)
    return stamp === null ? null : { ...located, stamp }
  }
  const brainSourceAt = (key: string): Located | null => {
    const prefix = `${CONTEXT_DIR_NAME}/`
    if (key.startsWith(prefix)) {
      const relative = key.slice(prefix.length)
      const kind = BRAIN_FILE_KINDS.find(([pattern]) => pattern.test(relative))?.[1]
      return kind ? { key, kind, stamp: '', file: { brain: relative } } : null
    }
    const folder = places.patternsDir
    if (
      folder === null ||
      dirname(key) !== folder ||
      !key.endsWith('.md') ||
      basename(key).startsWith('.')
    )
      return null
    return { key, kind: 'patterns', stamp: '', file: { absolute: key } }
  }
  const transcriptSourceAt = (key: string): Located | null => {
    const folder = places.transcriptsDir
    if (folder === null || !key.startsWith(`${folder}/`) || !key.endsWith('.jsonl')) return null
    const parts = key.slice(folder.length + 1).split('/')
    const main = parts.length === 1 && !parts[0]?.startsWith('.')
    const sub =
      parts.length === 3 &&
      parts[1] === 'subagents' &&
      !parts.some((part) => part.startsWith('.') || part === '')
    if (!main && !sub) return null
    const session = (parts[0] ?? '').replace(/\.jsonl$/, '')
    return { key, kind: 'transcripts', stamp: '', file: { absolute: key }, session }
  }

  /** Where the text of a hit on a brain file is now: its line, another line, or gone. */
  const relocate = (source: Located, hit: RecallHit): string | null => {
    if (source.key.endsWith('.json')) {
      const wanted = normalizedText(hit.text)
      const same = entriesOf(source).filter((entry) => normalizedText(entry.text) === wanted)
      if (same.some((entry) => entry.location === hit.location)) return hit.location
      return same[0]?.location ?? null
    }
    const text = textOf(source)
    if (text === null) return null
    const wanted = normalizedText(hit.text)
    const at = Number(/:(\d+)$/.exec(hit.location)?.[1] ?? 0)
    const matches = (line: string | undefined) =>
      line !== undefined && normalizedText(redactSecrets(lineText(line))) === wanted
    // The line where the index saw it, found without splitting the file (the usual case).
    if (matches(lineAt(text, at))) return hit.location
    const moved = text.split(/\r?\n/).findIndex(matches)
    return moved < 0 ? null : `${source.key}:${moved + 1}`
  }

  return {
    async list() {
      return listAll()
    },
    async entries(source) {
      if (!known.has(source.key)) listAll()
      const located = known.get(source.key)
      return located ? entriesOf({ ...located, stamp: source.stamp }) : []
    },
    async locate(hit: RecallHit) {
      const source = sourceAt(hit.location)
      if (source === null) return null
      // Transcripts only grow: a record once written stays where it is.
      if (source.kind === 'transcripts') return hit.location
      return relocate(source, hit)
    },
    async read(id: string) {
      const source = sourceAt(id)
      if (source === null) return null
      if (source.kind === 'transcripts') {
        const record = /#([^:]+)/.exec(id)?.[1]
        const pieces = entriesOf(source).filter(
          (entry) => entry.location === `${source.key}#${record}`,
        )
        return pieces.length === 0 ? null : pieces.map((entry) => entry.text).join('\n\n')
      }
      const text = textOf(source)
      if (text === null) return null
      const line = Number(/:(\d+)$/.exec(id)?.[1] ?? 0)
      return redactSecrets(line > 0 ? sectionAround(text, line) : text)
    },
  }
}

/** Line `line` (1-based) of `text`, as `text.split(/\r?\n/)[line - 1]` gives it, or undefined. */
export function lineAt(text: string, line: number): string | undefined {
  if (!Number.isInteger(line) || line < 1) return undefined
  let start = 0
  for (let seen = 1; seen < line; seen += 1) {
    const end = text.indexOf('\n', start)
    if (end === -1) return undefined
    start = end + 1
  }
  const end = text.indexOf('\n', start)
  const found = end === -1 ? text.slice(start) : text.slice(start, end)
  return end !== -1 && found.endsWith('\r') ? found.slice(0, -1) : found
}

/** The markdown section that holds line `line` (1-based): from its heading to the next of its level. */
export function sectionAround(text: string, line: number): string {
  const lines = text.split(/\r?\n/)
  const index = Math.min(Math.max(line - 1, 0), lines.length - 1)
  let start = index
  while (start > 0 && !/^#{1,6}\s/.test(lines[start] ?? '')) start -= 1
  const level = /^(#{1,6})\s/.exec(lines[start] ?? '')?.[1]?.length ?? 7
  let end = index + 1
  while (end < lines.length) {
    const heading = /^(#{1,6})\s/.exec(lines[end] ?? '')
    if (heading && (heading[1]?.length ?? 7) <= level) break
    end += 1
  }
  return lines.slice(start, end).join('\n').trimEnd()
}

/** The brain files recall reads, by their path under the context root, and their kind. */
const BRAIN_FILE_KINDS: [RegExp, string][] = [
  [/^core\/(?:[0-2]\.[^/]+\.md|(?:CHANGELOG|RELEASES)\.json)$/, 'core'],
  [/^core\/(?:[3-9]|[1-9]\d+)\.[^/]+$/, 'core'],
  [/^core\/features\/[^/.][^/]*\.md$/, 'core'],
  [/^state\/[^/.][^/]*\.md$/, 'core'],
  [/^knowledge\/[^/.][^/]*\.md$/, 'knowledge'],
  [/^knowledge\/sessions\/[^/.][^/]*\.md$/, 'sessions'],
]

/** Regular files (no links, no folders) directly in `folder`, sorted; none when it is missing. */
function filesIn(folder: string | null): string[] {
  if (folder === null) return []
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort()
  } catch {
    return []
  }
}

/** `<size>:<mtime>` of a regular file (not a link), or null when it is none or too large. */
function stampOf(path: string, maxBytes = Number.POSITIVE_INFINITY): string | null {
  try {
    const stat = lstatSync(path)
    if (!stat.isFile() || stat.size > maxBytes) return null
    return `${stat.size}:${Math.trunc(stat.mtimeMs)}`
  } catch {
    return null
  }
}
