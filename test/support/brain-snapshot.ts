/** Every text file of a brain but the ledger, for before/after comparisons in tests. */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, relative } from 'node:path'

/**
 * The brain's files by path relative to the context root, leaving out the ledger and journals
 * (dot files and folders starting `.sleep`) and the recall index (`.recall-*`: derived data, with
 * file stamps and generated names that differ between two runs of the same sleep), with the
 * project folder's name masked so copies compare equal.
 */
export function brainFiles(root: string): Record<string, string> {
  const project = basename(join(root, '..'))
  const files: Record<string, string> = {}
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name)
      // The ledger, its history, journals and the lock folders a killed process leaves behind.
      if (name.startsWith('.sleep') || name.startsWith('.recall-')) continue
      if (statSync(path).isDirectory()) walk(path)
      else {
        files[relative(root, path)] = readFileSync(path, 'utf8').replaceAll(project, '<project>')
      }
    }
  }
  walk(root)
  return files
}
