/**
 * Removes the temporary files a killed writer left beside the ledger. atomic-write.ts names them
 * `<file>.<pid>.<n>.<random>`; a writer killed between writing and renaming leaves one behind.
 * Only called under the ledger lock: every ledger write holds it, so no live writer owns one.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** `<name>.<pid>.<n>.<random>`, exactly as atomic-write.ts makes it: nothing else matches. */
const TEMPORARY = /^\.\d+\.\d+\.[a-z0-9]{0,8}$/

/** Deletes the temporary files of `names` in `folder`; reports, never throws, on a failure. */
export function sweepTemporaryFiles(
  folder: string,
  names: readonly string[],
  warn: (message: string) => void,
): string[] {
  let entries: string[]
  try {
    entries = readdirSync(folder)
  } catch {
    return []
  }
  const swept: string[] = []
  for (const entry of entries) {
    const name = names.find((candidate) => entry.startsWith(candidate))
    if (name === undefined || !TEMPORARY.test(entry.slice(name.length))) continue
    try {
      rmSync(join(folder, entry), { force: true })
      swept.push(entry)
    } catch (error) {
      warn(`could not remove the stale temporary file ${join(folder, entry)}: ${String(error)}`)
    }
  }
  return swept
}
