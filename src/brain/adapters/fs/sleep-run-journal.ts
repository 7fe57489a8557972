/**
 * The sleep-run journal's file and format (fs-unit-of-work.ts writes and finishes it). It is read
 * back from disk, so it is outside input: parsed strictly, and it may only name the files a sleep
 * run edits.
 */
import * as z from 'zod/mini'
import { applyConsolidation } from '../../core/sleep-run/apply-consolidation.ts'
import type { SleepState } from '../../core/sleep-state.ts'
import type { StateChange } from '../../ports/sleep-state-store.ts'

/** Where the journal lives, relative to the context root. */
export const SLEEP_RUN_JOURNAL = 'state/.sleep-run.json'

/**
 * The only files a sleep run writes: the core files it edits, feature PRDs, task files, the
 * archives and session digests. One folder deep (two for features and digests), plain names, no
 * dot files, nothing else.
 */
const SLEEP_RUN_PATH =
  /^(?:core\/(?:1\.user\.md|2\.memory\.md|CHANGELOG\.json)|core\/features\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.md|state\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.md|knowledge\/[A-Za-z0-9_-][A-Za-z0-9._-]*-archive\.md|knowledge\/sessions\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.md)$/

/** True for a path a sleep run may write (relative to the context root). */
export function isSleepRunPath(path: string): boolean {
  return SLEEP_RUN_PATH.test(path) && !path.includes('..')
}

/** A committed, not yet finished consolidation. */
export type SleepRunJournal = z.infer<SleepRunJournalSchema>

/**
 * The journal's schema, built on first use: every hook loads this module, few find a journal, and
 * building zod schemas at start-up cost the hooks ~1 ms.
 */
let journalSchema: SleepRunJournalSchema | undefined
type SleepRunJournalSchema = ReturnType<typeof buildJournalSchema>

function buildJournalSchema() {
  return z.object({
    version: z.literal(2),
    id: z.string(),
    epoch: z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'not a date')),
    created_at: z.string(),
    summary: z.string(),
    files: z.array(
      z.object({
        path: z.string().check(z.refine(isSleepRunPath, 'not a file a sleep run writes')),
        /** The text the plan was made from (null: the file did not exist). */
        before: z.nullable(z.string()),
        text: z.string(),
      }),
    ),
    triggers: z.array(z.object({ when: z.string(), remind: z.string(), source: z.string() })),
    /** Exactly what the run read: cleared by id when it finishes. */
    consolidated: z.object({
      sessions: z.array(z.object({ session_id: z.string(), stopped_at: z.nullable(z.string()) })),
      bookmarks: z.array(z.string()),
    }),
    /** The model that made the observations and the tokens it used, kept in the history entry. */
    model: z.optional(z.string()),
    usage: z.optional(z.object({ input_tokens: z.number(), output_tokens: z.number() })),
  })
}

/** The journal in `text`, or the problem that refuses it. */
export function parseJournal(
  text: string,
): { ok: true; value: SleepRunJournal } | { ok: false; problem: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // Written by atomic rename, so a torn journal was never committed.
    return { ok: false, problem: 'it is not valid JSON (an uncommitted sleep run)' }
  }
  journalSchema ??= buildJournalSchema()
  const parsed = journalSchema.safeParse(json)
  if (parsed.success) return { ok: true, value: parsed.data }
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
  return { ok: false, problem: `${issue?.message ?? 'invalid'}${where}` }
}

/** The ledger change of a finished journal (unchanged when its run was already applied). */
export function applyJournalToLedger(
  state: SleepState,
  journal: SleepRunJournal,
  now: Date,
  nextTriggerId: () => string,
): StateChange<undefined> {
  const applied = applyConsolidation(state, {
    runId: journal.id,
    change: journal,
    now,
    nextTriggerId,
  })
  return applied === null ? { state, result: undefined } : { ...applied, result: undefined }
}
