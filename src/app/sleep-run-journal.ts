/**
 * Makes `sleep run` all-or-nothing. The planned file texts are first written, atomically, to one
 * journal file: that write is the commit point. Before it, nothing in the brain has changed; after
 * it, the run is finished by whoever gets there first (the run itself, or the next `somnus`
 * command after a crash), and finishing twice is harmless.
 */
import { addTrigger, completeSleep } from '../core/ledger.ts'
import type { SleepState } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Where the journal lives, relative to the context root. */
export const SLEEP_RUN_JOURNAL = 'state/.sleep-run.json'

/** A committed, not yet finished consolidation. */
export interface SleepRunJournal {
  id: string
  epoch: string
  created_at: string
  summary: string
  files: { path: string; text: string }[]
  triggers: { when: string; remind: string; source: string }[]
  /** The model that made the observations and the tokens it used, kept in the history entry. */
  model?: string
  usage?: { input_tokens: number; output_tokens: number }
}

/** Commits the run: after this returns, the consolidation will happen even if the process dies. */
export async function commitSleepRun(brain: Brain, journal: SleepRunJournal): Promise<void> {
  await brain.files.write(SLEEP_RUN_JOURNAL, `${JSON.stringify(journal)}\n`)
}

/**
 * Finishes a committed run: writes every file, then resets the ledger once (the run id guards a
 * second reset), then drops the journal. Returns false when there was no journal.
 */
export async function finishSleepRun(brain: Brain): Promise<boolean> {
  const text = await brain.files.read(SLEEP_RUN_JOURNAL)
  if (text === null) return false
  let journal: SleepRunJournal
  try {
    journal = JSON.parse(text) as SleepRunJournal
  } catch {
    // The journal is written by atomic rename, so a torn journal means it was never committed.
    brain.warn(
      `ignoring an unreadable ${SLEEP_RUN_JOURNAL} (an uncommitted sleep run); nothing was changed`,
    )
    await brain.files.remove(SLEEP_RUN_JOURNAL)
    return false
  }
  for (const file of journal.files) await brain.files.write(file.path, file.text)
  await removeLeftoverTempFiles(
    brain,
    journal.files.map((file) => file.path),
  )
  await brain.state.update((state) => {
    if (state.last_sleep_run_id === journal.id) return { state, result: undefined }
    // The plan covered exactly what was recorded up to its epoch; later work stays for next time.
    const completed = completeSleep(
      { ...state, sleep_started_at: journal.epoch },
      { summary: journal.summary, now: brain.clock.now() },
    )
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
  })
  await brain.files.remove(SLEEP_RUN_JOURNAL)
  return true
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
