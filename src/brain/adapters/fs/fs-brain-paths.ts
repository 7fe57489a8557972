/**
 * Brain files on disk by their path under the context root, replaced by atomic rename, every path
 * confined to the root (confined-path.ts). The fs adapters' own layer: use cases name documents
 * (fs-brain-files.ts), the sleep-run journal names its own files here. Reads are synchronous on
 * purpose: SessionStart reads ~100 small files, and going through the thread pool for each cost
 * ~10 ms more than reading them in turn (measured with bench/hook-session-start.ts).
 */
import { readdirSync } from 'node:fs'
import { writeFileAtomicSync } from '../../../engine/adapters/fs/atomic-write.ts'
import { confineTo } from '../../../engine/adapters/fs/confined-path.ts'
import { SomnusError } from '../../../engine/core/errors.ts'

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

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

/**
 * The most of one brain document Somnus reads: brain documents are a few KB (SessionStart shows
 * about 10,000 tokens in all), and a 123 MB file planted in a repository took a SessionStart to
 * 3.9 s and 1.15 GB when read whole.
 */
export const BRAIN_DOCUMENT_MAX_BYTES = 4 * 1024 * 1024

/** Says once per file and process that a document was cut; default: a line on stderr. */
export type TooLargeWarning = (message: string) => void

const warnedAbout = new Set<string>()

/** The files under `root` (the `_agent_context` folder), by path. */
export function createFsBrainPaths(
  root: string,
  warn: TooLargeWarning = (message) => process.stderr.write(`somnus: ${message}\n`),
): BrainPaths {
  // Paths are joined as they are once their text is checked: normalising them was ~2 ms of a
  // SessionStart that reads ~125 files (Node takes `/` on every platform).
  const confined = confineTo(root)
  /** Documents read cut short: never written back, which would drop everything past the cut. */
  const cut = new Set<string>()
  return {
    async read(path) {
      const absolute = confined.resolve(path)
      const read = confined.readTextAtMost(absolute, BRAIN_DOCUMENT_MAX_BYTES)
      if (read === null) return null
      if (read.bytes <= BRAIN_DOCUMENT_MAX_BYTES) return read.text
      cut.add(absolute)
      if (!warnedAbout.has(absolute)) {
        warnedAbout.add(absolute)
        warn(
          `${absolute} is ${megabytes(read.bytes)}, over the ${megabytes(BRAIN_DOCUMENT_MAX_BYTES)} a brain document may hold: only its start is read, and Somnus will not rewrite it. Shorten it (or delete it if you did not write it).`,
        )
      }
      // Cut at the last whole line (a multi-byte character split by the cap ends there too).
      const lastLine = read.text.lastIndexOf('\n')
      return lastLine === -1 ? '' : read.text.slice(0, lastLine + 1)
    },
    async write(path, text) {
      const absolute = confined.resolve(path)
      if (cut.has(absolute))
        throw new SomnusError(
          'INVALID_INPUT',
          `Not rewriting ${absolute}: it is over ${megabytes(BRAIN_DOCUMENT_MAX_BYTES)} and was read only in part, so writing it would drop the rest. Shorten it, then run the command again.`,
        )
      writeFileAtomicSync(confined.prepareWrite(absolute), text)
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
