/**
 * `somnus sleep run`, computed: given the ledger, the model's observations and the brain's files,
 * the exact file texts, triggers and summary a consolidation produces. No I/O here; the app layer
 * applies the plan atomically (or prints it as a diff with --dry-run).
 */

import { updateFrontmatter } from '../frontmatter.ts'
import {
  ensureSection,
  parseMarkdown,
  prependListItems,
  renderMarkdown,
} from '../markdown/markdown-document.ts'
import { inlineText } from '../markdown-text.ts'
import type { Observation } from '../model-results.ts'
import { redactSecrets } from '../redact-secrets.ts'
import type { SleepState } from '../sleep-state.ts'
import {
  type ArchivedSection,
  appendToArchive,
  archiveOverflow,
  MAX_CORE_FILE_LINES,
} from './archive-overflow.ts'
import { changelogEntries } from './changelog-entries.ts'
import { type BrainText, consolidateCompletedTasks } from './consolidate-features.ts'
import { CORE_FILES, routeObservation, triggerFor, type UnitKind } from './route-observation.ts'
import { repeatsAny, restatesAny } from './similar-lines.ts'
import { supersedeLines } from './supersede-lines.ts'

/**
 * New entries one sleep may add to one section (bookmarked facts are always kept). The most
 * important come first, so the cap drops the weakest; a sleep should leave a small, current
 * picture, not replay every turn.
 */
export const MAX_NEW_ENTRIES_PER_SECTION = 8

/** Everything the planner looks at. `files` holds the current text of the files it may edit. */
export interface SleepRunInput {
  now: Date
  /** Every session and bookmark in it is consolidated (the caller leaves out what must wait). */
  state: SleepState
  observations: readonly Observation[]
  unitKinds: ReadonlyMap<string, UnitKind>
  /** The model that made the observations, cited on every line. */
  model: string
  files: ReadonlyMap<string, string | null>
  tasks: readonly BrainText[]
  features: readonly BrainText[]
  maxCoreLines?: number
}

/** One file the run writes: its text before (null: new file) and after. */
export interface PlannedFile {
  path: string
  before: string | null
  after: string
}

/** The whole consolidation, ready to apply or to show. */
export interface SleepRunPlan {
  files: PlannedFile[]
  triggers: { when: string; remind: string; source: string }[]
  summary: string
  sessionIds: string[]
  bookmarkIds: string[]
  counts: {
    sessions: number
    bookmarks: number
    memory_lines: number
    preferences: number
    triggers: number
    changelog_entries: number
    features_updated: number
    lines_archived: number
  }
  /** True when there was nothing to consolidate: applying it must change nothing at all. */
  empty: boolean
}

/** Plans one consolidation. Deterministic: same input, same plan. */
export function planSleepRun(input: SleepRunInput): SleepRunPlan {
  const date = input.now.toISOString().slice(0, 10)
  const { sessions, bookmarks } = input.state
  const salience = new Map(bookmarks.map((bookmark) => [bookmark.id, bookmark.salience]))
  const kindOf = (id: string): UnitKind => input.unitKinds.get(id) ?? 'assistant'
  const edits = new Map<string, string | null>(input.files)
  const documents = new Map<string, ReturnType<typeof parseMarkdown>>()
  const documentFor = (path: string) => {
    let document = documents.get(path)
    if (!document) {
      document = parseMarkdown(edits.get(path) ?? `# ${titleOf(path)}\n`)
      documents.set(path, document)
    }
    return document
  }

  // Bookmarks first by salience, then RED, YLW, GRN: the order of the seed's protocol.
  const ordered = [...input.observations].sort(
    (left, right) => rank(left, salience) - rank(right, salience),
  )
  const additions = new Map<string, string[]>()
  const capCounts = new Map<string, number>()
  const triggers: SleepRunPlan['triggers'] = []
  // Lines a correction replaced, by file: they go to the archive, never silently away.
  const superseded = new Map<string, ArchivedSection[]>()
  let memoryLines = 0
  let preferences = 0
  for (const observation of ordered) {
    const destination = routeObservation(observation, kindOf)
    if (!destination) continue
    const key = `${destination.path}\n${destination.section}`
    const section = ensureSectionPeek(documentFor(destination.path), destination.section)
    const planned = additions.get(key) ?? []
    const bookmarked = observation.sources.some((id) => salience.has(id))
    const capped = capCounts.get(key) ?? 0
    if (!bookmarked && capped >= MAX_NEW_ENTRIES_PER_SECTION) continue
    // A critical bookmark is skipped only when the brain already says it word for word.
    const critical = observation.sources.some((id) => salience.get(id) === 3)
    const current = [...section, ...planned]
    if (critical ? restatesAny(observation.text, current) : repeatsAny(observation.text, current))
      continue
    if (!bookmarked) capCounts.set(key, capped + 1)
    const authoritative = bookmarked || observation.sources.some((id) => kindOf(id) === 'user')
    const replaced = supersedeLines(documentFor(destination.path), observation.text, authoritative)
    if (replaced.archived.length > 0) {
      superseded.set(destination.path, [
        ...(superseded.get(destination.path) ?? []),
        ...replaced.archived,
      ])
    }
    const sources = [...new Set([...observation.sources, ...replaced.sources])]
    planned.push(
      `- ${oneLine(observation.text)} <!-- sources: ${sources.join(', ')}; ${input.model} ${date} -->`,
    )
    additions.set(key, planned)
    if (destination.path === CORE_FILES.user) preferences += 1
    else memoryLines += 1
    const trigger = destination.section === 'Active Memory' ? null : triggerFor(observation.text)
    const known = [
      ...input.state.triggers.map((existing) => existing.remind),
      ...triggers.map((t) => t.remind),
    ]
    if (trigger && !repeatsAny(trigger.remind, known)) {
      triggers.push({ ...trigger, source: observation.sources.join(',') })
    }
  }
  for (const [key, lines] of additions) {
    const [path = '', heading = ''] = key.split('\n')
    const document = documentFor(path)
    prependListItems(ensureSection(document, heading), lines)
  }

  const features = consolidateCompletedTasks({ tasks: input.tasks, features: input.features, date })
  for (const file of features.files) edits.set(file.path, file.text)

  let linesArchived = 0
  for (const [path, document] of documents) {
    const rendered = updateFrontmatter(renderMarkdown(document), { updated: date })
    const shrunk = archiveOverflow(rendered, input.maxCoreLines ?? MAX_CORE_FILE_LINES)
    edits.set(path, shrunk.text)
    const archived = [...(superseded.get(path) ?? []), ...shrunk.archived]
    if (archived.length > 0) {
      const archivePath = `knowledge/${path.replace(/^core\//, '').replace(/\.md$/, '')}-archive.md`
      edits.set(
        archivePath,
        appendToArchive(edits.get(archivePath) ?? null, {
          sourcePath: path,
          date,
          archived,
        }),
      )
      linesArchived += archived.reduce((total, part) => total + part.lines.length, 0)
    }
  }

  const existingChangelog = parseChangelog(edits.get(CORE_FILES.changelog) ?? null)
  const entries = existingChangelog ? changelogEntries(sessions, existingChangelog) : []
  if (existingChangelog && entries.length > 0) {
    edits.set(
      CORE_FILES.changelog,
      `${JSON.stringify([...entries, ...existingChangelog], null, 2)}\n`,
    )
  }

  const files = [...edits]
    .filter(([path, text]) => text !== null && text !== (input.files.get(path) ?? null))
    .map(([path, text]) => ({ path, before: input.files.get(path) ?? null, after: text ?? '' }))
    .sort((left, right) => left.path.localeCompare(right.path))
  const counts = {
    sessions: sessions.length,
    bookmarks: bookmarks.length,
    memory_lines: memoryLines,
    preferences,
    triggers: triggers.length,
    changelog_entries: entries.length,
    features_updated: features.tasksFolded.length,
    lines_archived: linesArchived,
  }
  return {
    files,
    triggers,
    summary: summarize(counts, input.model),
    sessionIds: sessions.map((session) => session.session_id),
    bookmarkIds: bookmarks.map((bookmark) => bookmark.id),
    counts,
    empty: sessions.length === 0 && bookmarks.length === 0 && files.length === 0,
  }
}

function rank(observation: Observation, salience: ReadonlyMap<string, number>): number {
  const strongest = Math.max(0, ...observation.sources.map((id) => salience.get(id) ?? 0))
  const priority = { RED: 0, YLW: 1, GRN: 2 }[observation.priority]
  return (3 - strongest) * 3 + priority
}

function ensureSectionPeek(document: ReturnType<typeof parseMarkdown>, heading: string): string[] {
  const wanted = heading.toLowerCase()
  return document.sections.find((section) => section.heading.toLowerCase() === wanted)?.lines ?? []
}

function oneLine(text: string): string {
  return inlineText(redactSecrets(text))
}

function titleOf(path: string): string {
  const name =
    path
      .split('/')
      .at(-1)
      ?.replace(/^\d+\./, '')
      .replace(/\.md$/, '') ?? path
  return name.charAt(0).toUpperCase() + name.slice(1)
}

/** The changelog's entries; null when the file is not a JSON array, which is then left alone. */
function parseChangelog(text: string | null): unknown[] | null {
  if (text === null || text.trim() === '') return []
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value : null
  } catch {
    return null
  }
}

function summarize(counts: SleepRunPlan['counts'], model: string): string {
  const parts = [
    `${counts.memory_lines} memory lines`,
    `${counts.preferences} preferences`,
    `${counts.triggers} triggers`,
    `${counts.changelog_entries} changelog entries`,
    `${counts.features_updated} feature updates`,
  ]
  if (counts.lines_archived > 0) parts.push(`${counts.lines_archived} lines archived`)
  return `Consolidated ${counts.sessions} sessions and ${counts.bookmarks} bookmarks (${model}): ${parts.join(', ')}`
}
