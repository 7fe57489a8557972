/** A folder Somnus owns outside the project (user-scope patterns, auto memory), on disk. */
import { readdirSync } from 'node:fs'
import { writeFileAtomicSync } from '../../../engine/adapters/fs/atomic-write.ts'
import { confineTo } from '../../../engine/adapters/fs/confined-path.ts'
import type { FolderFiles } from '../../ports/folder-files.ts'

/** A `FolderFiles` confined to `root` (made on the first write). */
export function createFsFolderFiles(root: string): FolderFiles {
  const confined = confineTo(root)
  return {
    async read(path) {
      return confined.readText(confined.resolve(path))
    },
    async write(path, text) {
      writeFileAtomicSync(confined.prepareWrite(confined.resolve(path)), text)
    },
    async list(folder, suffix) {
      const absolute = folder === '' ? root : confined.resolve(folder)
      const real = confined.existingFolder(absolute)
      if (real === null) return []
      return readdirSync(real, { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
        .map((entry) => entry.name)
        .sort()
    },
  }
}
