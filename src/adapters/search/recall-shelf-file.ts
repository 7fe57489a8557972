/**
 * A recall shelf kept in one dot-file (`_agent_context/state/.recall-brain.json`, a creature's
 * `.recall-index.json`): the sources' stamps on the first line, the MiniSearch index on the rest,
 * written whole by atomic rename, so a reader sees the old shelf or the new one. A missing,
 * damaged or older-format file gives an empty shelf, rebuilt from the sources: it is only derived
 * data. The file is read and written confined to its folder, never through a symlink.
 */
import type { RecallShelf } from '../../ports/recall-sources.ts'
import { writeFileAtomicSync } from '../fs/atomic-write.ts'
import { confineTo } from '../fs/confined-path.ts'
import {
  createMiniSearchRecallIndex,
  loadMiniSearchRecallIndex,
  RECALL_INDEX_FORMAT,
  type SerializableRecallIndex,
} from './minisearch-recall-index.ts'

/** A shelf whose index can be written out. */
export interface FileRecallShelf extends RecallShelf {
  readonly index: SerializableRecallIndex
}

/** The shelf in the file `name` of `folder` (an empty one when there is none yet). */
export function openRecallShelf(folder: string, name: string): FileRecallShelf {
  const confined = confineTo(folder)
  const path = confined.resolve(name)
  let text: string | null = null
  try {
    text = confined.readText(path)
  } catch {
    text = null
  }
  const loaded = text === null ? null : parseShelf(text)
  const index = loaded?.index ?? createMiniSearchRecallIndex()
  const stamps = loaded?.stamps ?? new Map<string, { stamp: string; ids: string[] }>()
  return {
    index,
    stamps,
    existed: loaded !== null,
    async save() {
      const head = JSON.stringify({ format: RECALL_INDEX_FORMAT, stamps: [...stamps] })
      writeFileAtomicSync(confined.prepareWrite(path), `${head}\n${index.serialize()}`)
    },
  }
}

/** A shelf that lives only as long as the process (a creature in memory, a store of your own). */
export function memoryRecallShelf(): FileRecallShelf {
  return {
    index: createMiniSearchRecallIndex(),
    stamps: new Map(),
    existed: true,
    save: async () => undefined,
  }
}

function parseShelf(text: string): Pick<FileRecallShelf, 'index' | 'stamps'> | null {
  const newline = text.indexOf('\n')
  if (newline < 0) return null
  try {
    const head = JSON.parse(text.slice(0, newline)) as {
      format?: number
      stamps?: [string, { stamp: string; ids: string[] }][]
    }
    if (head.format !== RECALL_INDEX_FORMAT || !Array.isArray(head.stamps)) return null
    const index = loadMiniSearchRecallIndex(text.slice(newline + 1))
    return index === null ? null : { index, stamps: new Map(head.stamps) }
  } catch {
    return null
  }
}
