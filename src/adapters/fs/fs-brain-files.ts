/**
 * Brain files on disk under the context root, replaced by atomic rename, every path confined to
 * the root (confined-path.ts). Reads are synchronous on purpose: SessionStart reads ~100 small
 * files, and going through the thread pool for each cost ~10 ms more than reading them in turn
 * (measured with bench/hook-session-start.ts). The atomic writer loads only when something is
 * written, which the hook path rarely does.
 */
import { readdirSync } from 'node:fs'
import type { BrainFiles } from '../../ports/brain-files.ts'
import { namingPath } from './atomic-write.ts'
import { confineTo } from './confined-path.ts'

/** A `BrainFiles` rooted at `root` (the `_agent_context` folder). */
export function createFsBrainFiles(root: string): BrainFiles {
  // Paths are joined as they are once their text is checked: normalising them was ~2 ms of a
  // SessionStart that reads ~125 files (Node takes `/` on every platform).
  const confined = confineTo(root)
  return {
    async read(path) {
      return confined.readText(confined.resolve(path))
    },
    async write(path, text) {
      const target = confined.prepareWrite(confined.resolve(path))
      const { default: writeFileAtomic } = await import('write-file-atomic')
      await writeFileAtomic(target, text).catch((error: unknown) => {
        throw namingPath(error, target)
      })
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
