/**
 * Brain files on disk by their path under the context root, replaced by atomic rename, every path
 * confined to the root (confined-path.ts). The fs adapters' own layer: use cases name documents
 * (fs-brain-files.ts), the sleep-run journal names its own files here. Reads are synchronous on
 * purpose: SessionStart reads ~100 small files, and going through the thread pool for each cost
 * ~10 ms more than reading them in turn (measured with bench/hook-session-start.ts).
 */
import { readdirSync } from 'node:fs'
import { writeFileAtomicSync } from './atomic-write.ts'
import { confineTo } from './confined-path.ts'

/** Text files addressed by slash paths relative to a brain's root, confined to it. */
export interface BrainPaths {
  /** The file's text, or null when it does not exist. */
  read(path: string): Promise<string | null>
  /** Creates or replaces the file atomically, making its folders. */
  write(path: string, text: string): Promise<void>
  /** Deletes the file; no error when it is already gone. */
  remove(path: string): Promise<void>
  /** File names (not folders) directly inside `folder`, sorted; empty when the folder is missing. */
  list(folder: string): Promise<string[]>
}

/** The files under `root` (the `_agent_context` folder), by path. */
export function createFsBrainPaths(root: string): BrainPaths {
  // Paths are joined as they are once their text is checked: normalising them was ~2 ms of a
  // SessionStart that reads ~125 files (Node takes `/` on every platform).
  const confined = confineTo(root)
  return {
    async read(path) {
      return confined.readText(confined.resolve(path))
    },
    async write(path, text) {
      writeFileAtomicSync(confined.prepareWrite(confined.resolve(path)), text)
    },
    async remove(path) {
      confined.remove(confined.resolve(path))
    },
    async list(folder) {
      const real = confined.existingFolder(folder === '' ? root : confined.resolve(folder))
      if (real === null) return []
      try {
        return readdirSync(real, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name)
          .sort()
      } catch (error) {
        // A file where the folder should be lists as an empty folder, as a missing one does.
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return []
        throw error
      }
    },
  }
}
