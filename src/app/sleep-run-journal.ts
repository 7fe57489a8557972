/**
 * Makes `sleep run` all-or-nothing. The planned file texts are first written, atomically, to one
 * journal file: that write is the commit point. Before it, nothing in the brain has changed; after
 * it, the run is finished by whoever gets there first (the run itself, or the next `somnus`
 * command after a crash), and finishing twice is harmless.
 *
 * The journal is read back from disk, so it is outside input: a repository can ship one. It is
 * parsed strictly, it may only name the files a sleep run edits, and a file that changed after the
 * plan was made is never overwritten. A journal that fails any of this is set aside and reported.
 */
import * as z from 'zod/mini'
import { addTrigger, completeConsolidation } from '../core/ledger.ts'
import type { SleepState } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Where the journal lives, relative to the context root. */
export const SLEEP_RUN_JOURNAL = 'state/.sleep-run.json'

/**
 * The only files a sleep run writes: the core files it edits, feature PRDs, task files and the
 * archives. One folder deep (two for features), plain names, no dot files, nothing else.
 */
const SLEEP_RUN_PATH =
  /^(?:core\/(?:1\.user\.md|2\.memory\.md|CHANGELOG\.json)|core\/features\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.md|state\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.md|knowledge\/[A-Za-z0-9_-][A-Za-z0-9._-]*-archive\.md)$/

/** True for a path a sleep run may write (relative to the context root). */
export function isSleepRunPath(path: string): boolean {
  return SLEEP_RUN_PATH.test(path) && !path.includes('..')
}

const SleepRunJournalSchema = z.object({
  version: z.literal(2),
  id: z.string(),
  epoch: z.iso.datetime(),
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

/** A committed, not yet finished consolidation. */
export type SleepRunJournal = z.infer<typeof SleepRunJournalSchema>

/** What finishing a journal did. */
export interface FinishedRun {
  /** False when there was no journal (or it was set aside). */
  finished: boolean
  /** Files left as they were because they changed after the plan was made. */
  conflicts: string[]
}

/** Commits the run: after this returns, the consolidation will happen even if the process dies. */
export async function commitSleepRun(brain: Brain, journal: SleepRunJournal): Promise<void> {
  await brain.files.write(SLEEP_RUN_JOURNAL, `${JSON.stringify(journal)}\n`)
}

/**
 * Finishes a run that was killed after its commit point, unless a live run holds the brain (the
 * journal is then its own, and it finishes it). Cheap when there is no journal: one failed read.
 */
export async function finishInterruptedSleepRun(brain: Brain): Promise<void> {
  if ((await brain.files.read(SLEEP_RUN_JOURNAL)) === null) return
  await brain.state.exclusive(() => finishSleepRun(brain))
}

/**
 * Finishes a committed run (the caller holds the brain's consolidation lock): writes every file that is still as the plan found it, then clears
 * what the run consolidated once (the run id guards a second time), then drops the journal.
 */
export async function finishSleepRun(brain: Brain): Promise<FinishedRun> {
  const text = await brain.files.read(SLEEP_RUN_JOURNAL)
  if (text === null) return { finished: false, conflicts: [] }
  const journal = parseJournal(text)
  if (!journal.ok) {
    await setAside(brain, text, journal.problem)
    return { finished: false, conflicts: [] }
  }
  const { value } = journal
  const conflicts: string[] = []
  for (const file of value.files) {
    const current = await brain.files.read(file.path)
    if (current === file.text) continue
    if (current !== file.before) {
      conflicts.push(await keepPlannedText(brain, value.id, file))
      continue
    }
    await brain.files.write(file.path, file.text)
  }
  await removeLeftoverTempFiles(
    brain,
    value.files.map((file) => file.path),
  )
  await brain.state.update((state) => finishInLedger(brain, state, value))
  await brain.files.remove(SLEEP_RUN_JOURNAL)
  return { finished: true, conflicts }
}

function finishInLedger(brain: Brain, state: SleepState, journal: SleepRunJournal) {
  if (state.last_sleep_run_id === journal.id) return { state, result: undefined }
  const completed = completeConsolidation(state, {
    summary: journal.summary,
    now: brain.clock.now(),
    epoch: journal.epoch,
    consolidated: journal.consolidated,
  })
  let next: SleepState = { ...completed.state, last_sleep_run_id: journal.id }
  for (const trigger of journal.triggers) {
    next = addTrigger(next, { ...trigger, id: brain.ids.next('trg'), now: brain.clock.now() })
  }
  const history = {
    ...completed.history,
    ...(journal.model ? { model: journal.model } : {}),
    ...(journal.usage ? { usage: journal.usage } : {}),
  }
  return { state: next, result: undefined, history }
}

function parseJournal(
  text: string,
): { ok: true; value: SleepRunJournal } | { ok: false; problem: string } {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // Written by atomic rename, so a torn journal was never committed.
    return { ok: false, problem: 'it is not valid JSON (an uncommitted sleep run)' }
  }
  const parsed = SleepRunJournalSchema.safeParse(json)
  if (parsed.success) return { ok: true, value: parsed.data }
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
  return { ok: false, problem: `${issue?.message ?? 'invalid'}${where}` }
}

/** Moves a refused journal out of the way, keeping its text for inspection, and says so. */
async function setAside(brain: Brain, text: string, problem: string): Promise<void> {
  const stamp = brain.clock.now().toISOString().replaceAll(':', '-')
  const target = `${SLEEP_RUN_JOURNAL}.rejected-${stamp}`
  await brain.files.write(target, text)
  await brain.files.remove(SLEEP_RUN_JOURNAL)
  brain.warn(
    `refused ${SLEEP_RUN_JOURNAL}: ${problem}. Nothing was written from it; it was moved to ${target}. If you did not run \`somnus sleep run\` here, the file came from elsewhere (a cloned repository?): delete it.`,
  )
}

/**
 * A file edited since the plan was made keeps the edit; the planned text is kept beside the
 * journal so nothing the run consolidated is lost, and the user is told where.
 */
async function keepPlannedText(
  brain: Brain,
  runId: string,
  file: SleepRunJournal['files'][number],
): Promise<string> {
  const target = `state/.sleep-run-${runId}-${file.path.replaceAll('/', '_')}`
  await brain.files.write(target, file.text)
  brain.warn(
    `${file.path} changed after the sleep run planned its edit, so it was left as it is; the planned text is in ${target}: merge what you need by hand, then delete it.`,
  )
  return file.path
}

/**
 * Removes the temp files an atomic write leaves beside its target when the writer is killed
 * between writing and renaming (`<name>.<digits>`, write-file-atomic's naming). Only called for
 * paths a dead sleep run was writing, so no live writer owns them.
 */
export async function removeLeftoverTempFiles(
  brain: Brain,
  paths: readonly string[],
): Promise<void> {
  const byFolder = new Map<string, Set<string>>()
  for (const path of paths) {
    const slash = path.lastIndexOf('/')
    const folder = slash < 0 ? '' : path.slice(0, slash)
    byFolder.set(folder, (byFolder.get(folder) ?? new Set()).add(path.slice(slash + 1)))
  }
  for (const [folder, names] of byFolder) {
    for (const entry of await brain.files.list(folder)) {
      const dot = entry.lastIndexOf('.')
      if (dot > 0 && /^\d+$/.test(entry.slice(dot + 1)) && names.has(entry.slice(0, dot))) {
        await brain.files.remove(folder === '' ? entry : `${folder}/${entry}`)
      }
    }
  }
}
