/** Brain files on disk under the context root, replaced by atomic rename. */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import type { BrainFiles } from '../../ports/brain-files.ts'

/** A `BrainFiles` rooted at `root` (the `_agent_context` folder). */
export function createFsBrainFiles(root: string): BrainFiles {
  const resolve = (path: string) => join(root, ...path.split('/'))
  return {
    async read(path) {
      try {
        return await readFile(resolve(path), 'utf8')
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
    async write(path, text) {
      const target = resolve(path)
      await mkdir(dirname(target), { recursive: true })
      await writeFileAtomic(target, text)
    },
    async remove(path) {
      await rm(resolve(path), { force: true })
    },
    async list(folder) {
      try {
        const entries = await readdir(resolve(folder), { withFileTypes: true })
        return entries
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name)
          .sort()
      } catch (error) {
        if (isMissing(error)) return []
        throw error
      }
    },
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
