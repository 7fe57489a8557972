/**
 * Reads the brain's documents (tasks, knowledge, features, core index, JSON lists) for the
 * snapshot and the list commands. Files are read in parallel; a file that vanishes between list
 * and read is skipped, so a concurrent edit never breaks a SessionStart.
 */

import type { BrainDocument, SlugKind } from '../../engine/core/brain-layout.ts'
import {
  type ChangelogEntry,
  type CoreIndexEntry,
  changelogEntries,
  parseCoreIndexEntry,
  parseJsonArray,
  type ReleaseEntry,
  releaseEntries,
} from '../../engine/core/core-files.ts'
import { isSomnusError } from '../../engine/core/errors.ts'
import { fieldText, parseFrontmatter } from '../../engine/core/frontmatter.ts'
import { type FeatureSummary, parseFeature } from '../core/features.ts'
import { type KnowledgeDocument, parseKnowledge } from '../core/knowledge.ts'
import { compareText } from '../core/snapshot/compare-text.ts'
import type { DigestSummary, ListOrProblem } from '../core/snapshot/snapshot-types.ts'
import { parseTask, type TaskSummary } from '../core/tasks.ts'
import type { Brain } from './brain.ts'

/** Task `slug`. */
export const taskDocument = (slug: string): BrainDocument => ({ kind: 'task', slug })
/** Knowledge note `slug`. */
export const knowledgeDocument = (slug: string): BrainDocument => ({ kind: 'knowledge', slug })

/** Every document of a slug kind with its text (one that vanishes between list and read is skipped). */
async function slugDocuments(
  brain: Brain,
  kind: SlugKind,
): Promise<{ slug: string; text: string }[]> {
  const documents = await brain.files.list(kind)
  const texts = await Promise.all(documents.map((document) => brain.files.read(document)))
  return documents.flatMap((document, index) => {
    const text = texts[index]
    if (text === null || text === undefined || !('slug' in document)) return []
    return [{ slug: document.slug, text }]
  })
}

/** Every task in `state/`, parsed. */
export async function readTasks(brain: Brain): Promise<TaskSummary[]> {
  return (await slugDocuments(brain, 'task')).map(({ slug, text }) => parseTask(slug, text))
}

/** Every knowledge note, parsed (bodies included). */
export async function readKnowledge(brain: Brain): Promise<KnowledgeDocument[]> {
  return (await slugDocuments(brain, 'knowledge')).map(({ slug, text }) =>
    parseKnowledge(slug, text),
  )
}

/** Every feature PRD, parsed. */
export async function readFeatures(brain: Brain): Promise<FeatureSummary[]> {
  return (await slugDocuments(brain, 'feature')).map(({ slug, text }) => parseFeature(slug, text))
}

/**
 * The `count` newest session digests (by their dated names) with their one-liners, and how many
 * there are. Only those few are read: the folder grows by one file per session.
 */
export async function readRecentDigests(
  brain: Brain,
  count: number,
): Promise<{ recent: DigestSummary[]; total: number }> {
  const documents = await brain.files.list('digest')
  const slugs = documents
    .flatMap((document) => (document.kind === 'digest' ? [document.slug] : []))
    .sort()
    .reverse()
  const newest = slugs.slice(0, count)
  const texts = await Promise.all(newest.map((slug) => brain.files.read({ kind: 'digest', slug })))
  const recent = newest.flatMap((slug, index) => {
    const text = texts[index]
    if (text === null || text === undefined) return []
    return [{ slug, summary: fieldText(parseFrontmatter(text).data, 'summary') ?? null }]
  })
  return { recent, total: slugs.length }
}

/** Core files 3 and up, in numeric order, with their name and summary. */
export async function readExtendedCore(brain: Brain): Promise<CoreIndexEntry[]> {
  const names = (await brain.files.list('extended-core'))
    .flatMap((document) => (document.kind === 'extended-core' ? [document.file] : []))
    .sort((a, b) => leadingNumber(a) - leadingNumber(b) || compareText(a, b))
  const texts = await Promise.all(
    names.map((file) => brain.files.read({ kind: 'extended-core', file })),
  )
  return names.flatMap((name, index) => {
    const text = texts[index]
    return text === null || text === undefined ? [] : [parseCoreIndexEntry(name, text)]
  })
}

/** A JSON list file read leniently: a malformed file becomes a problem to show, not a failure. */
async function readJsonList<T>(
  brain: Brain,
  name: 'changelog' | 'releases',
  rowsOf: (rows: unknown[]) => T[],
): Promise<ListOrProblem<T>> {
  try {
    const document: BrainDocument = { kind: 'core', name }
    const text = await brain.files.read(document)
    return { rows: rowsOf(parseJsonArray(text, brain.files.where(document))) }
  } catch (error) {
    if (isSomnusError(error)) return { problem: error.message }
    throw error
  }
}

/** The changelog, newest first, or the problem with the file. */
export function readChangelog(brain: Brain): Promise<ListOrProblem<ChangelogEntry>> {
  return readJsonList(brain, 'changelog', changelogEntries)
}

/** The releases, newest first, or the problem with the file. */
export function readReleases(brain: Brain): Promise<ListOrProblem<ReleaseEntry>> {
  return readJsonList(brain, 'releases', releaseEntries)
}

/** The number a core file name starts with ("10.runbook.md" → 10), so 10 sorts after 9. */
function leadingNumber(name: string): number {
  return Number.parseInt(name, 10) || 0
}
