/**
 * Reads the brain's documents (tasks, knowledge, features, core index, JSON lists) for the
 * snapshot and the list commands. Files are read in parallel; a file that vanishes between list
 * and read is skipped, so a concurrent edit never breaks a SessionStart.
 */

import {
  type ChangelogEntry,
  type CoreIndexEntry,
  changelogEntries,
  isExtendedCoreFile,
  parseCoreIndexEntry,
  parseJsonArray,
  type ReleaseEntry,
  releaseEntries,
} from '../core/core-files.ts'
import { isSomnusError } from '../core/errors.ts'
import { type FeatureSummary, parseFeature } from '../core/features.ts'
import { type KnowledgeDocument, parseKnowledge } from '../core/knowledge.ts'
import { compareText } from '../core/snapshot/compare-text.ts'
import type { ListOrProblem } from '../core/snapshot/snapshot-types.ts'
import { parseTask, type TaskSummary } from '../core/tasks.ts'
import type { Brain } from './brain.ts'

/** Where each kind of document lives, relative to the context root. */
export const BRAIN_PATHS = {
  tasks: 'state',
  knowledge: 'knowledge',
  features: 'core/features',
  core: 'core',
  changelog: 'core/CHANGELOG.json',
  releases: 'core/RELEASES.json',
} as const

/** The path of task `slug`. */
export const taskPath = (slug: string) => `${BRAIN_PATHS.tasks}/${slug}.md`
/** The path of knowledge note `slug`. */
export const knowledgePath = (slug: string) => `${BRAIN_PATHS.knowledge}/${slug}.md`

/** `<slug>.md` files of a folder (dot files such as `.sleep.json` are not documents). */
async function markdownFiles(
  brain: Brain,
  folder: string,
): Promise<{ slug: string; text: string }[]> {
  const names = (await brain.files.list(folder)).filter(
    (name) => name.endsWith('.md') && !name.startsWith('.'),
  )
  const texts = await Promise.all(names.map((name) => brain.files.read(`${folder}/${name}`)))
  return names.flatMap((name, index) => {
    const text = texts[index]
    return text === null || text === undefined ? [] : [{ slug: name.slice(0, -3), text }]
  })
}

/** Every task in `state/`, parsed. */
export async function readTasks(brain: Brain): Promise<TaskSummary[]> {
  return (await markdownFiles(brain, BRAIN_PATHS.tasks)).map(({ slug, text }) =>
    parseTask(slug, text),
  )
}

/** Every knowledge note, parsed (bodies included). */
export async function readKnowledge(brain: Brain): Promise<KnowledgeDocument[]> {
  return (await markdownFiles(brain, BRAIN_PATHS.knowledge)).map(({ slug, text }) =>
    parseKnowledge(slug, text),
  )
}

/** Every feature PRD, parsed. */
export async function readFeatures(brain: Brain): Promise<FeatureSummary[]> {
  return (await markdownFiles(brain, BRAIN_PATHS.features)).map(({ slug, text }) =>
    parseFeature(slug, text),
  )
}

/** Core files 3 and up, in numeric order, with their name and summary. */
export async function readExtendedCore(brain: Brain): Promise<CoreIndexEntry[]> {
  const names = (await brain.files.list(BRAIN_PATHS.core))
    .filter(isExtendedCoreFile)
    .sort((a, b) => leadingNumber(a) - leadingNumber(b) || compareText(a, b))
  const texts = await Promise.all(
    names.map((name) => brain.files.read(`${BRAIN_PATHS.core}/${name}`)),
  )
  return names.flatMap((name, index) => {
    const text = texts[index]
    return text === null || text === undefined ? [] : [parseCoreIndexEntry(name, text)]
  })
}

/** A JSON list file read leniently: a malformed file becomes a problem to show, not a failure. */
async function readJsonList<T>(
  brain: Brain,
  path: string,
  rowsOf: (rows: unknown[]) => T[],
): Promise<ListOrProblem<T>> {
  try {
    return { rows: rowsOf(parseJsonArray(await brain.files.read(path), `_agent_context/${path}`)) }
  } catch (error) {
    if (isSomnusError(error)) return { problem: error.message }
    throw error
  }
}

/** The changelog, newest first, or the problem with the file. */
export function readChangelog(brain: Brain): Promise<ListOrProblem<ChangelogEntry>> {
  return readJsonList(brain, BRAIN_PATHS.changelog, changelogEntries)
}

/** The releases, newest first, or the problem with the file. */
export function readReleases(brain: Brain): Promise<ListOrProblem<ReleaseEntry>> {
  return readJsonList(brain, BRAIN_PATHS.releases, releaseEntries)
}

/** The number a core file name starts with ("10.runbook.md" → 10), so 10 sorts after 9. */
function leadingNumber(name: string): number {
  return Number.parseInt(name, 10) || 0
}
