/**
 * `somnus sleep run`, computed: given the ledger, the model's observations and the brain's files,
 * the exact file texts, triggers and summary a consolidation produces. No I/O here; the app layer
 * applies the plan atomically (or prints it as a diff with --dry-run).
 */

import type { SessionDigest } from '../../../engine/core/digest/session-digest.ts'
import {
  citedSources,
  indexOfRestatement,
  indexOfSameMeaning,
  repeatsAny,
  withSources,
} from '../../../engine/core/extractive/similar-lines.ts'
import { updateFrontmatter } from '../../../engine/core/frontmatter.ts'
import { inlineText } from '../../../engine/core/markdown-text.ts'
import type { Observation } from '../../../engine/core/model-results.ts'
import { redactSecrets } from '../../../engine/core/redact-secrets.ts'
import {
  ensureSection,
  parseMarkdown,
  prependListItems,
  renderMarkdown,
} from '../markdown/markdown-document.ts'
import type { SleepState } from '../sleep-state.ts'
import { plural } from '../snapshot/section-text.ts'
import {
  type ArchivedSection,
  appendToArchive,
  archiveOverflow,
  MAX_CORE_FILE_LINES,
} from './archive-overflow.ts'
import { changelogEntries } from './changelog-entries.ts'
import { type BrainText, consolidateCompletedTasks } from './consolidate-features.ts'
import {
  digestEntries,
  entryText,
  finishedItems,
  MEMORY_SECTIONS,
  resolvedIssues,
  sameIssue,
} from './digest-entries.ts'
import { digestFeatureEntries } from './digest-features.ts'
import { CORE_FILES, routeObservation, triggerFor, type UnitKind } from './route-observation.ts'
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
  /** The digests of the sessions in `state`, each with its rendered document text. */
  digests?: readonly LandingDigest[]
  /** Slugs of the digest documents the brain holds already (a new one never replaces one). */
  existingDigests?: readonly string[]
}

/** A session digest on its way into the brain: the digest and its document's text. */
export interface LandingDigest {
  digest: SessionDigest
  text: string
}

/** A line planned for a section, whose sources grow when a later fact says it again. */
interface PlannedLine {
  text: string
  sources: string[]
}

const PRIORITY_RANK = { RED: 0, YLW: 1, GRN: 2 } as const

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
    /** Completed tasks folded into their PRDs, plus PRDs that got a digest's finished work. */
    features_updated: number
    lines_archived: number
    /** Session digests kept whole in `knowledge/sessions/`. */
    digests: number
    /** Facts said again: their sources were added to the line that says them already. */
    sources_merged: number
  }
  /** True when there was nothing to consolidate: applying it must change nothing at all. */
  empty: boolean
}

/** Plans one consolidation. Deterministic: same input, same plan. */
export function planSleepRun(input: SleepRunInput): SleepRunPlan {
  const date = input.now.toISOString().slice(0, 10)
  const { sessions, bookmarks } = input.state
  const salience = new Map(bookmarks.map((bookmark) => [bookmark.id, bookmark.salience]))
  const digests = input.digests ?? []
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

  // Bookmarks first by salience, then what the digests say (open work first), then the other
  // observations RED, YLW, GRN: the order of the seed's protocol.
  const candidates = [
    ...digestEntries(digests.map((landing) => landing.digest)).map((entry) => ({
      ...entry,
      bookmarked: false,
      critical: false,
      rank: 9 + PRIORITY_RANK[entry.priority],
    })),
    ...input.observations.flatMap((observation) => {
      const destination = routeObservation(observation, kindOf)
      if (!destination) return []
      const bookmarked = observation.sources.some((id) => salience.has(id))
      return [
        {
          text: observation.text,
          sources: observation.sources,
          destination,
          bookmarked,
          // A critical bookmark is skipped only when the brain already says it word for word.
          critical: observation.sources.some((id) => salience.get(id) === 3),
          authoritative: bookmarked || observation.sources.some((id) => kindOf(id) === 'user'),
          rank: rank(observation, salience),
        },
      ]
    }),
  ].sort((left, right) => left.rank - right.rank)

  // Finished work closes the open items it finishes: they move to the archive, never silently away.
  const resolved = new Map<string, ArchivedSection[]>()
  const finished = finishedItems(digests.map((landing) => landing.digest))
  if (finished.length > 0 && edits.get(CORE_FILES.memory)) {
    const memory = documentFor(CORE_FILES.memory)
    const section = memory.sections.find(
      (candidate) => candidate.heading.toLowerCase() === MEMORY_SECTIONS.open.toLowerCase(),
    )
    const closed = section ? resolvedIssues(section.lines, finished) : []
    if (section && closed.length > 0) {
      section.lines = section.lines.filter((line) => !closed.includes(line))
      resolved.set(CORE_FILES.memory, [
        { section: section.heading, lines: closed, reason: 'resolved' },
      ])
    }
  }

  const additions = new Map<string, PlannedLine[]>()
  const capCounts = new Map<string, number>()
  const triggers: SleepRunPlan['triggers'] = []
  // Lines a correction replaced, by file: they go to the archive, never silently away.
  const superseded = new Map<string, ArchivedSection[]>(resolved)
  let memoryLines = 0
  let preferences = 0
  let merged = 0
  for (const candidate of candidates) {
    const { destination } = candidate
    const text = entryText(candidate.text)
    if (text === '') continue
    const key = `${destination.path}\n${destination.section}`
    const document = documentFor(destination.path)
    const section = ensureSectionPeek(document, destination.section)
    const planned = additions.get(key) ?? []
    // One fact, every source cited: a repeat adds its sources to the line that says it already.
    // As list lines: the matchers look at list lines only (a file's headings and prose are not
    // entries), and a planned line without its bullet was never matched, so several sessions of
    // one sleep stating one fact wrote it once each.
    const plannedLines = planned.map((line) => `- ${line.text}`)
    const openIssue = destination.section === MEMORY_SECTIONS.open
    const inPlan = candidate.critical
      ? indexOfRestatement(text, plannedLines)
      : openIssue
        ? planned.findIndex(
            (line, index) =>
              indexOfSameMeaning(text, [plannedLines[index] ?? '']) === 0 ||
              sameIssue(text, line.text),
          )
        : indexOfSameMeaning(text, plannedLines)
    if (inPlan >= 0) {
      const line = planned[inPlan]
      if (line) line.sources = union(line.sources, candidate.sources)
      merged += 1
      continue
    }
    const inFile = candidate.critical
      ? indexOfRestatement(text, section)
      : indexOfSameMeaning(text, section)
    if (inFile >= 0) {
      const line = section[inFile] ?? ''
      if (!candidate.sources.every((id) => citedSources(line).includes(id))) {
        section[inFile] = withSources(line, candidate.sources)
        merged += 1
      }
      continue
    }
    const capped = capCounts.get(key) ?? 0
    if (!candidate.bookmarked && capped >= MAX_NEW_ENTRIES_PER_SECTION) continue
    if (!candidate.bookmarked) capCounts.set(key, capped + 1)
    const replaced = supersedeLines(document, text, candidate.authoritative)
    if (replaced.archived.length > 0) {
      superseded.set(destination.path, [
        ...(superseded.get(destination.path) ?? []),
        ...replaced.archived,
      ])
    }
    planned.push({ text, sources: union(candidate.sources, replaced.sources) })
    additions.set(key, planned)
    if (destination.path === CORE_FILES.user) preferences += 1
    else memoryLines += 1
    const trigger = destination.section === 'Active Memory' ? null : triggerFor(text)
    const known = [
      ...input.state.triggers.map((existing) => existing.remind),
      ...triggers.map((t) => t.remind),
    ]
    if (trigger && !repeatsAny(trigger.remind, known)) {
      triggers.push({ ...trigger, source: candidate.sources.join(',') })
    }
  }
  for (const [key, lines] of additions) {
    const [path = '', heading = ''] = key.split('\n')
    const document = documentFor(path)
    prependListItems(
      ensureSection(document, heading),
      lines.map(
        (line) =>
          `- ${oneLine(line.text)} <!-- sources: ${line.sources.join(', ')}; ${input.model} ${date} -->`,
      ),
    )
  }

  // Each digest kept whole, one document per session and part, named by its day and session.
  const digestSlugs = new Set(input.existingDigests ?? [])
  for (const landing of digests) {
    const slug = uniqueSlug(
      `${landing.digest.date ?? date}-${landing.digest.sessionId.slice(0, 8)}`,
      digestSlugs,
    )
    digestSlugs.add(slug)
    edits.set(`knowledge/sessions/${slug}.md`, landing.text)
  }

  const features = consolidateCompletedTasks({ tasks: input.tasks, features: input.features, date })
  for (const file of features.files) edits.set(file.path, file.text)
  // Finished work from the digests goes to the PRDs it belongs to, as well as to the changelog.
  const digestFeatures = digestFeatureEntries({
    digests: digests.map((landing) => landing.digest),
    features: input.features.map((feature) => ({
      path: feature.path,
      text: edits.get(feature.path) ?? feature.text,
    })),
    tasks: input.tasks,
    date,
    model: input.model,
  })
  for (const file of digestFeatures.files) edits.set(file.path, file.text)

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
  const entries = existingChangelog
    ? changelogEntries(
        sessions,
        existingChangelog,
        digests.map((landing) => landing.digest),
      )
    : []
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
    features_updated: features.tasksFolded.length + digestFeatures.featuresUpdated,
    lines_archived: linesArchived,
    digests: digests.length,
    sources_merged: merged,
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
  return (3 - strongest) * 3 + PRIORITY_RANK[observation.priority]
}

function ensureSectionPeek(document: ReturnType<typeof parseMarkdown>, heading: string): string[] {
  const wanted = heading.toLowerCase()
  return document.sections.find((section) => section.heading.toLowerCase() === wanted)?.lines ?? []
}

function oneLine(text: string): string {
  return inlineText(redactSecrets(text))
}

function union(left: readonly string[], right: readonly string[]): string[] {
  return [...new Set([...left, ...right])]
}

/** `base`, or `base-2`, `base-3`… when taken. */
function uniqueSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base
  let index = 2
  while (taken.has(`${base}-${index}`)) index += 1
  return `${base}-${index}`
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
    ...(counts.digests > 0 ? [plural(counts.digests, 'session digest')] : []),
    plural(counts.memory_lines, 'memory line'),
    plural(counts.preferences, 'preference'),
    plural(counts.triggers, 'trigger'),
    plural(counts.changelog_entries, 'changelog entry', 'changelog entries'),
    plural(counts.features_updated, 'feature update'),
  ]
  if (counts.lines_archived > 0) parts.push(`${plural(counts.lines_archived, 'line')} archived`)
  return `Consolidated ${plural(counts.sessions, 'session')} and ${plural(counts.bookmarks, 'bookmark')} (${model}): ${parts.join(', ')}`
}
