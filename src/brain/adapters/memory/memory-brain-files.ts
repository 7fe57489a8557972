/** Brain documents held in a Map: the shipped fake for tests and dry runs. */
import {
  CONTEXT_DIR_NAME,
  documentInFolder,
  documentPath,
  KIND_FOLDERS,
} from '../../../engine/core/brain-layout.ts'
import type { BrainFiles } from '../../../engine/ports/brain-files.ts'

/**
 * A `BrainFiles` in memory, optionally seeded with `initial` (text by the document's seed path,
 * `core/2.memory.md`, so a test can write the brain as it would lie on disk).
 */
export function createMemoryBrainFiles(initial: Record<string, string> = {}): BrainFiles & {
  /** A copy of every document by its seed path, for assertions and dry-run diffs. */
  snapshot(): Record<string, string>
} {
  const files = new Map(Object.entries(initial))
  // Keyed by the same layout as on disk, so a slug the disk refuses is refused here too.
  return {
    read: async (document) => files.get(documentPath(document)) ?? null,
    write: async (document, text) => {
      files.set(documentPath(document), text)
    },
    remove: async (document) => {
      files.delete(documentPath(document))
    },
    list: async (kind) => {
      const prefix = `${KIND_FOLDERS[kind]}/`
      return [...files.keys()]
        .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
        .map((path) => path.slice(prefix.length))
        .sort()
        .flatMap((name) => documentInFolder(kind, name) ?? [])
    },
    where: (document) => `${CONTEXT_DIR_NAME}/${documentPath(document)}`,
    snapshot: () => Object.fromEntries(files),
  }
}
