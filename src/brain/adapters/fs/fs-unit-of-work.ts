/**
 * The fs `UnitOfWork`: a consolidation's planned texts are first written, atomically, to one
 * journal file (`state/.sleep-run.json`); that write is the commit point. Before it, nothing in
 * the brain has changed; after it, the consolidation is finished by whoever gets there first (the
 * run itself, or the next SessionStart or `sleep run` after a crash), and finishing twice is
 * harmless.
 *
 * The journal is read back from disk, so it is outside input: a repository can ship one. It is
 * parsed strictly, it may only name the files a sleep run edits, and a file that changed after the
 * plan was made is never overwritten. A journal that fails any of this is set aside and reported.
 */
import { documentPath } from '../../../engine/core/brain-layout.ts'
import type { Clock } from '../../../engine/ports/clock.ts'
import type { IdGenerator } from '../../../engine/ports/id-generator.ts'
import type { SleepStateStore } from '../../ports/sleep-state-store.ts'
import type { Applied, Consolidation, UnitOfWork } from '../../ports/unit-of-work.ts'
import { type BrainPaths, createFsBrainPaths } from './fs-brain-paths.ts'
import {
  applyJournalToLedger,
  parseJournal,
  SLEEP_RUN_JOURNAL,
  type SleepRunJournal,
} from './sleep-run-journal.ts'

export { SLEEP_RUN_JOURNAL } from './sleep-run-journal.ts'

/** What the fs unit of work works with. */
export interface FsUnitOfWorkOptions {
  /** The `_agent_context` folder. */
  root: string
  state: SleepStateStore
  clock: Clock
  ids: IdGenerator
  warn: (message: string) => void
}

/** A `UnitOfWork` journaled in the brain's `state/` folder. */
export function createFsUnitOfWork(options: FsUnitOfWorkOptions): UnitOfWork {
  const paths = createFsBrainPaths(options.root)
  const finish = (): Promise<Applied | null> => finishJournal(paths, options)
  return {
    async commit(consolidation) {
      await paths.write(SLEEP_RUN_JOURNAL, `${JSON.stringify(journalOf(consolidation))}\n`)
      return (await finish()) ?? { conflicts: [] }
    },
    async hasInterrupted() {
      return (await paths.read(SLEEP_RUN_JOURNAL)) !== null
    },
    async finishInterrupted() {
      const finished = await finish()
      // A run killed while writing its journal (before the commit point) leaves only a temp file.
      await removeLeftoverTempFiles(paths, [SLEEP_RUN_JOURNAL])
      return finished
    },
  }
}

function journalOf(consolidation: Consolidation): SleepRunJournal {
  const { ledger } = consolidation
  return {
    version: 2,
    id: consolidation.id,
    epoch: ledger.epoch,
    created_at: consolidation.createdAt,
    summary: ledger.summary,
    files: consolidation.documents.map((change) => ({
      path: documentPath(change.document),
      before: change.before,
      text: change.text,
    })),
    triggers: ledger.triggers,
    consolidated: {
      sessions: [...ledger.consolidated.sessions],
      bookmarks: [...ledger.consolidated.bookmarks],
    },
    ...(ledger.model === undefined ? {} : { model: ledger.model }),
    ...(ledger.usage === undefined ? {} : { usage: ledger.usage }),
  }
}

/**
 * Finishes the committed journal, if any: writes every file that is still as the plan found it,
 * then clears what the run consolidated once (the run id guards a second time), then drops the
 * journal. The caller holds the brain's consolidation lock.
 */
async function finishJournal(
  paths: BrainPaths,
  options: FsUnitOfWorkOptions,
): Promise<Applied | null> {
  const text = await paths.read(SLEEP_RUN_JOURNAL)
  if (text === null) return null
  const journal = parseJournal(text)
  if (!journal.ok) {
    await setAside(paths, options, text, journal.problem)
    return null
  }
  const { value } = journal
  const conflicts: string[] = []
  for (const file of value.files) {
    const current = await paths.read(file.path)
    if (current === file.text) continue
    if (current !== file.before) {
      conflicts.push(await keepPlannedText(paths, options, value.id, file))
      continue
    }
    await paths.write(file.path, file.text)
  }
  await removeLeftoverTempFiles(
    paths,
    value.files.map((file) => file.path),
  )
  await recordSleep(paths, options, value)
  await options.state.update((state) =>
    applyJournalToLedger(state, value, options.clock.now(), () => options.ids.next('trg')),
  )
  await paths.remove(SLEEP_RUN_JOURNAL)
  return { conflicts }
}

/**
 * Keeps what the run changed for the dashboard (sleep-record-file.ts). Loaded only here, so a hook
 * that finds no journal never loads the diff code; a failure is reported and never stops the run.
 */
async function recordSleep(
  paths: BrainPaths,
  options: FsUnitOfWorkOptions,
  journal: SleepRunJournal,
): Promise<void> {
  try {
    const { writeSleepRecord } = await import('./sleep-record-file.ts')
    await writeSleepRecord(paths, journal, await options.state.read())
  } catch (error) {
    options.warn(
      `could not keep the diff of sleep run ${journal.id} for the dashboard (${error instanceof Error ? error.message : String(error)}); the sleep itself is applied.`,
    )
  }
}

/** Moves a refused journal out of the way, keeping its text for inspection, and says so. */
async function setAside(
  paths: BrainPaths,
  options: FsUnitOfWorkOptions,
  text: string,
  problem: string,
): Promise<void> {
  const stamp = options.clock.now().toISOString().replaceAll(':', '-')
  const target = `${SLEEP_RUN_JOURNAL}.rejected-${stamp}`
  await paths.write(target, text)
  await paths.remove(SLEEP_RUN_JOURNAL)
  options.warn(
    `refused ${SLEEP_RUN_JOURNAL}: ${problem}. Nothing was written from it; it was moved to ${target}. If you did not run \`somnus sleep run\` here, the file came from elsewhere (a cloned repository?): delete it.`,
  )
}

/**
 * A file edited since the plan was made keeps the edit; the planned text is kept beside the
 * journal so nothing the run consolidated is lost, and the user is told where.
 */
async function keepPlannedText(
  paths: BrainPaths,
  options: FsUnitOfWorkOptions,
  runId: string,
  file: SleepRunJournal['files'][number],
): Promise<string> {
  const target = `state/.sleep-run-${runId}-${file.path.replaceAll('/', '_')}`
  await paths.write(target, file.text)
  options.warn(
    `${file.path} changed after the sleep run planned its edit, so it was left as it is; the planned text is in ${target}: merge what you need by hand, then delete it.`,
  )
  return file.path
}

/**
 * Temp files an atomic write leaves beside its target when the writer is killed between writing
 * and renaming: atomic-write.ts's `<name>.<pid>.<n>.<random>`, and write-file-atomic's
 * `<name>.<digits>` (which wrote brain files before; a brain may still hold one).
 */
const LEFTOVER_SUFFIX = /^\.(?:\d+|\d+\.\d+\.[a-z0-9]{0,8})$/

/**
 * Removes the temp files of `paths`. Only called for paths a dead sleep run was writing (under
 * the consolidation lock), so no live writer owns them.
 */
async function removeLeftoverTempFiles(
  paths: BrainPaths,
  targets: readonly string[],
): Promise<void> {
  const byFolder = new Map<string, Set<string>>()
  for (const path of targets) {
    const slash = path.lastIndexOf('/')
    const folder = slash < 0 ? '' : path.slice(0, slash)
    byFolder.set(folder, (byFolder.get(folder) ?? new Set()).add(path.slice(slash + 1)))
  }
  for (const [folder, names] of byFolder) {
    for (const entry of await paths.list(folder)) {
      const name = [...names].find(
        (candidate) =>
          entry.startsWith(candidate) && LEFTOVER_SUFFIX.test(entry.slice(candidate.length)),
      )
      if (name !== undefined) await paths.remove(folder === '' ? entry : `${folder}/${entry}`)
    }
  }
}
