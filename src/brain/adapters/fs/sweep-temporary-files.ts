/**
 * Removes the temporary files a killed writer left beside the ledger. atomic-write.ts names them
 * `<file>.<pid>.<n>.<random>`; a writer killed between writing and renaming leaves one behind.
 * Only called under the ledger lock: every ledger write holds it, so no live writer owns one. A
 * recall shelf's leftovers (`sleep run` or the prompt hook killed mid-save) are swept too, once
 * the pid in their name is gone.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** `<name>.<pid>.<n>.<random>`, exactly as atomic-write.ts makes it: nothing else matches. */
const TEMPORARY = /^\.\d+\.\d+\.[a-z0-9]{0,8}$/
/** The sleep-run journal's temporary files: either writer's naming (`.<digits>` or atomic-write's). */
const JOURNAL_TEMPORARY = /^\.(?:\d+|\d+\.\d+\.[a-z0-9]{0,8})$/
/** A recall shelf's temporary file (`.recall-<name>….seg.<pid>.<n>.<random>`), its writer's pid. */
const RECALL_TEMPORARY = /^\.recall-[\w.-]+?\.(?:seg|json)\.(\d+)\.\d+\.[a-z0-9]{0,8}$/

/**
 * True when no process `pid` runs. Recall writers hold no ledger lock, so only a dead writer's
 * leftover may go; a reused pid merely keeps the file until a later sweep.
 */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/** A file whose leftovers may be swept only when `mayRemove()` says no live writer owns them. */
export interface GuardedFile {
  name: string
  mayRemove: () => boolean
}

/**
 * Deletes the temporary files of `names` in `folder`, and those of `guarded` when its guard
 * allows (asked only if one is found); reports, never throws, on a failure.
 */
export function sweepTemporaryFiles(
  folder: string,
  names: readonly string[],
  warn: (message: string) => void,
  guarded?: GuardedFile,
): string[] {
  let entries: string[]
  try {
    entries = readdirSync(folder)
  } catch {
    return []
  }
  const swept: string[] = []
  let allowed: boolean | undefined
  const isGuardedLeftover = (entry: string): boolean => {
    if (guarded === undefined || !entry.startsWith(guarded.name)) return false
    if (!JOURNAL_TEMPORARY.test(entry.slice(guarded.name.length))) return false
    allowed = allowed ?? guarded.mayRemove()
    return allowed
  }
  for (const entry of entries) {
    const name = names.find((candidate) => entry.startsWith(candidate))
    const ours = name !== undefined && TEMPORARY.test(entry.slice(name.length))
    const recallWriter = RECALL_TEMPORARY.exec(entry)?.[1]
    const deadRecallWriter = recallWriter !== undefined && isGone(Number(recallWriter))
    if (!ours && !deadRecallWriter && !isGuardedLeftover(entry)) continue
    try {
      rmSync(join(folder, entry), { force: true })
      swept.push(entry)
    } catch (error) {
      warn(`could not remove the stale temporary file ${join(folder, entry)}: ${String(error)}`)
    }
  }
  return swept
}
