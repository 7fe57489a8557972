/** Brain files held in a Map: the shipped fake for tests and dry runs. */
import type { BrainFiles } from '../../ports/brain-files.ts'

/** A `BrainFiles` in memory, optionally seeded with `initial` (path to text). */
export function createMemoryBrainFiles(initial: Record<string, string> = {}): BrainFiles & {
  /** A copy of every file, for assertions and dry-run diffs. */
  snapshot(): Record<string, string>
} {
  const files = new Map(Object.entries(initial))
  return {
    read: async (path) => files.get(path) ?? null,
    write: async (path, text) => {
      files.set(path, text)
    },
    remove: async (path) => {
      files.delete(path)
    },
    list: async (folder) => {
      const prefix = folder === '' || folder === '.' ? '' : `${folder.replace(/\/$/, '')}/`
      return [...files.keys()]
        .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
        .map((path) => path.slice(prefix.length))
        .sort()
    },
    snapshot: () => Object.fromEntries(files),
  }
}
