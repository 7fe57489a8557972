/** A folder of text files held in a Map: the fake beside the fs adapter. */
import { refuseEscapingPath } from '../../../engine/ports/brain-files.ts'
import type { FolderFiles } from '../../ports/folder-files.ts'

/** A `FolderFiles` in memory, optionally seeded with `initial` (path to text). */
export function createMemoryFolderFiles(initial: Record<string, string> = {}): FolderFiles & {
  /** A copy of every file, for assertions. */
  snapshot(): Record<string, string>
} {
  const files = new Map(Object.entries(initial))
  return {
    read: async (path) => {
      refuseEscapingPath(path, 'the folder')
      return files.get(path) ?? null
    },
    write: async (path, text) => {
      refuseEscapingPath(path, 'the folder')
      files.set(path, text)
    },
    list: async (folder, suffix) => {
      refuseEscapingPath(folder, 'the folder')
      const prefix = folder === '' ? '' : `${folder.replace(/\/$/, '')}/`
      return [...files.keys()]
        .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
        .map((path) => path.slice(prefix.length))
        .filter((name) => name.endsWith(suffix))
        .sort()
    },
    snapshot: () => Object.fromEntries(files),
  }
}
