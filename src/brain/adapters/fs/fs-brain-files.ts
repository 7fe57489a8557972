/** Brain documents on disk: each document at its seed path (engine/core/brain-layout.ts), confined to the root. */
import {
  CONTEXT_DIR_NAME,
  documentInFolder,
  documentPath,
  KIND_FOLDERS,
} from '../../../engine/core/brain-layout.ts'
import type { BrainFiles } from '../../../engine/ports/brain-files.ts'
import { createFsBrainPaths } from './fs-brain-paths.ts'

/** A `BrainFiles` rooted at `root` (the `_agent_context` folder). */
export function createFsBrainFiles(root: string): BrainFiles {
  const paths = createFsBrainPaths(root)
  return {
    // async, so a refused name rejects the promise as every other failure does.
    read: async (document) => paths.read(documentPath(document)),
    write: async (document, text) => paths.write(documentPath(document), text),
    remove: async (document) => paths.remove(documentPath(document)),
    where: (document) => `${CONTEXT_DIR_NAME}/${documentPath(document)}`,
    async list(kind) {
      return (await paths.list(KIND_FOLDERS[kind])).flatMap(
        (name) => documentInFolder(kind, name) ?? [],
      )
    },
  }
}
