/**
 * Brain files on disk under the context root, replaced by atomic rename. Reads are synchronous on
 * purpose: SessionStart reads ~100 small files, and going through the thread pool for each cost
 * ~10 ms more than reading them in turn (measured with bench/hook-session-start.ts). The atomic
 * writer loads only when something is written, which the hook path rarely does.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { BrainFiles } from '../../ports/brain-files.ts'

/**
 * `node:fs/promises`, loaded on first write: loading it pulls in readline and the watchers, ~1 ms
 * of every hook start, and SessionStart only reads.
 */
const fsPromises = () => process.getBuiltinModule('node:fs/promises')

/** A `BrainFiles` rooted at `root` (the `_agent_context` folder). */
export function createFsBrainFiles(root: string): BrainFiles {
  // Most paths are the brain's own (`knowledge/<slug>.md`) and are joined as they are: normalising
  // them was ~2 ms of a SessionStart that reads ~125 files (Node takes `/` on every platform).
  // A path that climbs out (`../.claude/settings.json`) is resolved here, not by the OS, which
  // would fail when the context folder does not exist yet.
  const resolve = (path: string) =>
    path.includes('..') ? join(root, ...path.split('/')) : `${root}/${path}`
  return {
    async read(path) {
      try {
        return readFileSync(resolve(path), 'utf8')
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
    async write(path, text) {
      const target = resolve(path)
      await fsPromises().mkdir(dirname(target), { recursive: true })
      const { default: writeFileAtomic } = await import('write-file-atomic')
      await writeFileAtomic(target, text)
    },
    async remove(path) {
      await fsPromises().rm(resolve(path), { force: true })
    },
    async list(folder) {
      try {
        const entries = readdirSync(resolve(folder), { withFileTypes: true })
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
