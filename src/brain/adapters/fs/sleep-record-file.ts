/**
 * What each sleep changed, kept for the dashboard: `state/.sleeps/<run id>.json`, written when a
 * sleep run's journal is finished (fs-unit-of-work.ts). The journal holds every file's text before
 * and after and is deleted once applied; this keeps only a line diff of each file, the sessions
 * the run read (with the scores and counts the ledger drops when it clears them) and the
 * bookmarks. Machine state beside the ledger (git ignores `state/.*`); nothing reads it to decide
 * anything, so a missing or broken record only leaves a sleep without its diff.
 */
import { structuredPatch } from 'diff'
import * as z from 'zod/mini'
import type { SleepState } from '../../core/sleep-state.ts'
import type { BrainPaths } from './fs-brain-paths.ts'
import type { SleepRunJournal } from './sleep-run-journal.ts'

/** The folder of the records, relative to the context root. */
export const SLEEP_RECORDS_FOLDER = 'state/.sleeps'

/** Unchanged lines kept around each change. */
const CONTEXT_LINES = 2

const HunkSchema = z.object({
  old_start: z.number(),
  new_start: z.number(),
  /** Each line prefixed as in a unified diff: ' ' kept, '-' removed, '+' added. */
  lines: z.array(z.string()),
})

/** One record, as stored. */
export const SleepRecordSchema = z.object({
  version: z.literal(1),
  run_id: z.string(),
  created_at: z.string(),
  summary: z.string(),
  sessions: z.array(
    z.object({
      session_id: z.string(),
      stopped_at: z.nullable(z.string()),
      score: z.nullable(z.number()),
      change_count: z.nullable(z.number()),
      tool_count: z.nullable(z.number()),
    }),
  ),
  bookmarks: z.array(z.object({ id: z.string(), message: z.string(), salience: z.number() })),
  files: z.array(
    z.object({
      path: z.string(),
      created: z.boolean(),
      added: z.number(),
      removed: z.number(),
      hunks: z.array(HunkSchema),
    }),
  ),
})
/** What one sleep read and changed. */
export type SleepRecord = z.infer<typeof SleepRecordSchema>

/** The record of `journal`, with the rows the ledger still holds for what it consolidated. */
export function sleepRecordOf(journal: SleepRunJournal, before: SleepState): SleepRecord {
  const read = new Set(journal.consolidated.sessions.map((session) => session.session_id))
  const marked = new Set(journal.consolidated.bookmarks)
  return {
    version: 1,
    run_id: journal.id,
    created_at: journal.created_at,
    summary: journal.summary,
    sessions: journal.consolidated.sessions.map((session) => {
      const row = before.sessions.find(
        (candidate) => candidate.session_id === session.session_id && read.has(session.session_id),
      )
      return {
        session_id: session.session_id,
        stopped_at: session.stopped_at,
        score: row?.score ?? null,
        change_count: row?.change_count ?? null,
        tool_count: row?.tool_count ?? null,
      }
    }),
    bookmarks: before.bookmarks
      .filter((bookmark) => marked.has(bookmark.id))
      .map(({ id, message, salience }) => ({ id, message, salience })),
    files: journal.files.map((file) => {
      const patch = structuredPatch(file.path, file.path, file.before ?? '', file.text, '', '', {
        context: CONTEXT_LINES,
      })
      const lines = patch.hunks.flatMap((hunk) => hunk.lines)
      return {
        path: file.path,
        created: file.before === null,
        added: lines.filter((line) => line.startsWith('+')).length,
        removed: lines.filter((line) => line.startsWith('-')).length,
        hunks: patch.hunks.map((hunk) => ({
          old_start: hunk.oldStart,
          new_start: hunk.newStart,
          lines: hunk.lines,
        })),
      }
    }),
  }
}

/** Writes the record of `journal` (before its ledger change is applied, so the rows are there). */
export async function writeSleepRecord(
  paths: BrainPaths,
  journal: SleepRunJournal,
  before: SleepState,
): Promise<void> {
  const record = sleepRecordOf(journal, before)
  await paths.write(
    `${SLEEP_RECORDS_FOLDER}/${recordName(journal.id)}`,
    `${JSON.stringify(record)}\n`,
  )
}

/** What the dashboard's overview needs of one record: no diff lines. */
export interface SleepRecordSummary {
  run_id: string
  sessions: SleepRecord['sessions']
  files_changed: number
  lines_added: number
  lines_removed: number
}

/** Reads the records of one brain; remembers each file's summary until its text changes. */
export interface SleepRecordReader {
  /** Every readable record's summary, keyed by run id; a broken or foreign file is skipped. */
  summaries(): Promise<Map<string, SleepRecordSummary>>
  /** One run's record with its diff, and its summary; null when it has none. */
  record(runId: string): Promise<{ record: SleepRecord; summary: SleepRecordSummary } | null>
}

/**
 * A reader of `paths`' records. The files are read at once (not one after another) and a file whose
 * text is what it was last time is not parsed again: the parse, not the read, is what a 1,000-sleep
 * brain spends its time on. Nothing is written.
 */
export function sleepRecordReader(paths: BrainPaths): SleepRecordReader {
  const known = new Map<string, { text: string; summary: SleepRecordSummary | null }>()
  const parse = (text: string): SleepRecord | null => {
    try {
      const parsed = SleepRecordSchema.safeParse(JSON.parse(text))
      return parsed.success ? parsed.data : null
    } catch {
      // Not JSON: a torn or foreign file; the sleep is shown without its diff.
      return null
    }
  }
  return {
    async summaries() {
      const names = (await paths.list(SLEEP_RECORDS_FOLDER)).filter((name) =>
        name.endsWith('.json'),
      )
      const texts = await Promise.all(
        names.map((name) => paths.read(`${SLEEP_RECORDS_FOLDER}/${name}`)),
      )
      const summaries = new Map<string, SleepRecordSummary>()
      for (const [index, name] of names.entries()) {
        const text = texts[index]
        if (text === null || text === undefined) {
          known.delete(name)
          continue
        }
        let entry = known.get(name)
        if (entry?.text !== text) {
          const record = parse(text)
          entry = { text, summary: record && summaryOf(record) }
          known.set(name, entry)
        }
        if (entry.summary) summaries.set(entry.summary.run_id, entry.summary)
      }
      const present = new Set(names)
      for (const name of known.keys()) if (!present.has(name)) known.delete(name)
      return summaries
    },
    async record(runId) {
      const text = await paths.read(`${SLEEP_RECORDS_FOLDER}/${recordName(runId)}`)
      const record = text === null ? null : parse(text)
      return record?.run_id === runId ? { record, summary: summaryOf(record) } : null
    },
  }
}

function summaryOf(record: SleepRecord): SleepRecordSummary {
  return {
    run_id: record.run_id,
    sessions: record.sessions,
    files_changed: record.files.length,
    lines_added: record.files.reduce((sum, file) => sum + file.added, 0),
    lines_removed: record.files.reduce((sum, file) => sum + file.removed, 0),
  }
}

/** A file name for a run id: its plain characters only, so no id can name a path. */
function recordName(runId: string): string {
  return `${runId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`
}
