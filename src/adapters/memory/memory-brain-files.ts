/** Brain files held in a Map: the shipped fake for tests and dry runs. */
import { type BrainFiles, refuseEscapingPath } from '../../ports/brain-files.ts'

/** A `BrainFiles` in memory, optionally seeded with `initial` (path to text). */
export function createMemoryBrainFiles(initial: Record<string, string> = {}): BrainFiles & {
  /** A copy of every file, for assertions and dry-run diffs. */
  snapshot(): Record<string, string>
} {
  const files = new Map(Object.entries(initial))
  // The same refusals as on disk, so a dry run or a test cannot pass what a real run refuses.
  const checked = (path: string) => {
    refuseEscapingPath(path, 'the brain')
    return path
  }
  return {
    read: async (path) => files.get(checked(path)) ?? null,
    write: async (path, text) => {
      files.set(checked(path), text)
    },
    remove: async (path) => {
      files.delete(checked(path))
    },
    list: async (folder) => {
      const prefix = folder === '' || folder === '.' ? '' : `${checked(folder).replace(/\/$/, '')}/`
      return [...files.keys()]
        .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
        .map((path) => path.slice(prefix.length))
        .sort()
    },
    snapshot: () => Object.fromEntries(files),
  }
}
