/**
 * What the brain dashboard shows, read from one brain and never written: the debt over time, every
 * sleep and its diff, the brain now, the patterns and what they became, and recall. Each function
 * answers one JSON endpoint; every string leaves through redactSecrets (dashboard-json.ts).
 */

import type { SleepHistoryEntry } from '../../brain/brain-values.ts'
import type { SleepRecordReader, SleepRecordSummary, Somnus } from '../../brain/create-somnus.ts'
import { CONTEXT_DIR_NAME, documentAt } from '../../engine/core/brain-layout.ts'
import {
  type DigestFinder,
  digestFinder,
  sessionOfDigest,
  sourcesOfIds,
  sourcesOfLine,
} from './source-refs.ts'

/** Reads one brain for the dashboard. */
export interface BrainDashboardData {
  overview(): Promise<unknown>
  sleep(runId: string): Promise<unknown>
  now(): Promise<unknown>
  document(path: string): Promise<unknown>
  patterns(): Promise<unknown>
  recall(text: string): Promise<unknown>
}

/** What opens the brain's other parts (kept apart so the CLI decides how they are loaded). */
export interface BrainDashboardInput {
  somnus: Somnus
  /** The sleeps' records: summaries for the overview, one diff when a sleep is opened. */
  sleepRecords: SleepRecordReader
  /** The project's patterns and what they became; null when pattern learning is not set up. */
  patterns(): Promise<unknown>
}

/** The dashboard's reads of `input.somnus`'s brain. */
export function brainDashboardData(input: BrainDashboardInput): BrainDashboardData {
  const { somnus } = input
  const { brain } = somnus
  const digestPaths = async () =>
    (await brain.files.list('digest')).map((document) => brain.files.where(document))
  const relativeDigests = async () =>
    (await digestPaths()).map((path) => relativePath(brain.root, path))
  const finder = async (): Promise<DigestFinder> => digestFinder(await relativeDigests())

  return {
    async overview() {
      const [status, history, records] = await Promise.all([
        somnus.getSleepStatus(),
        brain.state.readHistory(),
        input.sleepRecords.summaries(),
      ])
      const sleeps = [...history]
        .reverse()
        .map((entry, index) => sleepSummary(entry, index, records.get(String(entry.run_id ?? ''))))
      const sessions = [
        ...sleeps.flatMap((sleep) =>
          (records.get(sleep.run_id ?? '')?.sessions ?? []).map((session) => ({
            ...session,
            pending: false,
            sleep: sleep.number,
          })),
        ),
        ...[...status.sessions]
          .sort((a, b) => (a.stopped_at ?? '').localeCompare(b.stopped_at ?? ''))
          .map((session) => ({
            session_id: session.session_id,
            stopped_at: session.stopped_at,
            score: session.score,
            change_count: session.change_count,
            tool_count: session.tool_count,
            pending: true,
            sleep: null,
          })),
      ]
      // The debt as recorded: before and after each sleep, then now.
      const debt = [
        ...sleeps.flatMap((sleep) => [
          { at: sleep.at, debt: sleep.debt_before, label: `before sleep ${sleep.number}` },
          { at: sleep.at, debt: sleep.debt_after, label: `after sleep ${sleep.number}` },
        ]),
        { at: brain.clock.now().toISOString(), debt: status.debt, label: 'now' },
      ]
      return {
        project: brain.projectDir,
        debt: status.debt,
        level: status.level,
        policy: status.policy,
        thresholds: status.thresholds,
        bookmarks_pending: status.bookmarks_pending,
        debt_series: debt,
        sessions,
        sleeps: sleeps.reverse(),
      }
    },

    async sleep(runId) {
      const [history, findDigest] = await Promise.all([brain.state.readHistory(), finder()])
      const ordered = [...history].reverse()
      const index = ordered.findIndex((entry, at) => sleepId(entry, at) === runId)
      const entry = ordered[index]
      if (entry === undefined) return null
      // Only this sleep's diff is read: the overview keeps summaries of the others.
      const read =
        typeof entry.run_id === 'string' ? await input.sleepRecords.record(entry.run_id) : null
      const record = read?.record
      return {
        ...sleepSummary(entry, index, read?.summary),
        session_ids: entry.session_ids,
        bookmark_ids: entry.bookmark_ids,
        sessions: record?.sessions ?? [],
        bookmarks: record?.bookmarks ?? [],
        files:
          record?.files.map((file) => ({
            ...file,
            hunks: file.hunks.map((hunk) => ({
              ...hunk,
              lines: hunk.lines.map((line) => ({
                text: line,
                sources:
                  line.startsWith('+') || line.startsWith('-')
                    ? sourcesOfLine(line, findDigest, ownSessionOf(file.path))
                    : [],
              })),
            })),
          })) ?? null,
      }
    },

    async now() {
      const [status, knowledge, tasks, triggers, bookmarks, findDigest, digests] =
        await Promise.all([
          somnus.getSleepStatus(),
          somnus.listKnowledge(),
          somnus.listTasks({ all: true }),
          somnus.listTriggers(),
          somnus.listBookmarks(),
          finder(),
          relativeDigests(),
        ])
      const coreDocuments = [
        ...(['soul', 'user', 'memory'] as const).map((name) => ({ kind: 'core' as const, name })),
        ...(await brain.files.list('extended-core')),
      ]
      const core = await Promise.all(
        coreDocuments.map(async (document) => {
          const path = relativePath(brain.root, brain.files.where(document))
          const lines = ((await brain.files.read(document)) ?? '').split('\n')
          const sourced = lines.filter((line) => sourcesOfLine(line, findDigest).length > 0)
          return { path, lines: lines.length, sourced_lines: sourced.length }
        }),
      )
      return {
        level: status.level,
        core,
        digests: [...digests].sort().reverse(),
        knowledge,
        tasks,
        triggers: triggers.map((trigger) => ({
          ...trigger,
          sources: trigger.source
            ? sourcesOfLine(`<!-- sources: ${trigger.source} -->`, findDigest)
            : [],
        })),
        bookmarks: [...bookmarks].sort((a, b) => b.salience - a.salience),
      }
    },

    async document(path) {
      const document = documentAt(path)
      if (document === null || document.kind === 'ledger' || document.kind === 'ignore-rules')
        return null
      const [text, findDigest] = await Promise.all([brain.files.read(document), finder()])
      if (text === null) return null
      const own = ownSessionOf(path)
      if (document.kind === 'core' && document.name === 'changelog') {
        return { path, lines: changelogLines(text, findDigest) }
      }
      return {
        path,
        lines: text.split('\n').map((line) => ({
          text: line,
          sources: sourcesOfLine(line, findDigest, own),
        })),
      }
    },

    patterns: input.patterns,

    async recall(text) {
      const query = text.trim().slice(0, 500)
      if (query === '') return { hits: [] }
      const recall = await somnus.recall()
      // refresh: false keeps the dashboard read-only: the index is as the last sleep run or
      // `somnus recall` left it.
      const hits = await recall.recall({ text: query, limit: 20, snippetChars: 400 }, undefined, {
        refresh: false,
      })
      return {
        hits: hits.map((hit) => ({
          kind: hit.kind,
          location: hit.location,
          snippet: hit.snippet,
          date: hit.date,
          sources: hit.sources,
          document: documentOfLocation(hit.location),
        })),
      }
    },
  }
}

/** A sleep's id: its run id, or its place in the history for sleeps recorded before run ids. */
function sleepId(entry: SleepHistoryEntry, index: number): string {
  return typeof entry.run_id === 'string' ? entry.run_id : `sleep-${index + 1}`
}

function sleepSummary(
  entry: SleepHistoryEntry,
  index: number,
  record: SleepRecordSummary | null | undefined,
) {
  return {
    id: sleepId(entry, index),
    number: index + 1,
    run_id: typeof entry.run_id === 'string' ? entry.run_id : null,
    at: entry.consolidated_at ?? entry.date,
    summary: entry.summary,
    debt_before: entry.debt_before,
    debt_after: entry.debt_after,
    sessions_processed: entry.sessions_processed,
    bookmarks_processed: entry.bookmarks_processed,
    model: typeof entry.model === 'string' ? entry.model : null,
    has_diff: Boolean(record),
    files_changed: record?.files_changed ?? null,
    lines_added: record?.lines_added ?? null,
    lines_removed: record?.lines_removed ?? null,
  }
}

function ownSessionOf(path: string): string | null {
  return path.startsWith('knowledge/sessions/') ? sessionOfDigest(path) : null
}

/** A path `where()` gave (absolute, or from the project folder) relative to the context root. */
function relativePath(root: string, path: string): string {
  if (path.startsWith(`${root}/`)) return path.slice(root.length + 1)
  return path.startsWith(`${CONTEXT_DIR_NAME}/`) ? path.slice(CONTEXT_DIR_NAME.length + 1) : path
}

/** The changelog, one line per entry, each with its sources. */
function changelogLines(text: string, findDigest: DigestFinder) {
  try {
    const entries = JSON.parse(text) as { date?: unknown; message?: unknown; sources?: unknown }[]
    return entries.map((entry) => ({
      text: `${String(entry.date ?? '')} ${String(entry.message ?? '')}`,
      sources: Array.isArray(entry.sources)
        ? sourcesOfIds(entry.sources.map(String), findDigest)
        : [],
    }))
  } catch {
    return text.split('\n').map((line) => ({ text: line, sources: [] }))
  }
}

/** The brain document a recall location (`path:line`) names, when it is one. */
function documentOfLocation(location: string): { path: string; line: number } | null {
  const match = /^(?:_agent_context\/)?(.+?):(\d+)$/.exec(location)
  if (!match?.[1] || documentAt(match[1]) === null) return null
  return { path: match[1], line: Number(match[2]) }
}
