/**
 * A creature's recall, composed without the rest of the creature: `somnus mind recall` is run
 * once per question, and the creature's other parts (its consolidation model and the token
 * counter they load: the tokenizer's 2.7 MB of tables, ~0.5 s and ~60 MB) play no part in a
 * search. Reads the folder's files and its recall index only.
 */
import { resolve } from 'node:path'
import { openRecallShelf } from '../engine/adapters/search/recall-shelf-file.ts'
import { createFsMindStore } from './adapters/fs/fs-mind-store.ts'
import { boundHeapGrowth } from './adapters/node/heap-growth.ts'
import { recallMind } from './app/recall-mind.ts'
import type { RecallHit } from './core/recall.ts'

/** The creature's recall index, beside its files (derived: deleting it only costs a rebuild). */
export const MIND_RECALL_FILE = '.recall-index.json'

/**
 * A creature's recall alone: a search of the folder `folder` (named `location` in messages).
 * `boundHeap`: the process is a short one of its own (the CLI), so its heap may be held close to
 * what it keeps live while a first index build runs (mind/adapters/node/heap-growth.ts); a process
 * that embeds Somnus keeps its own settings.
 */
export function createMindRecall(options: {
  folder: string
  location?: string
  boundHeap?: boolean
}): {
  recall(query: string, limit?: number): Promise<RecallHit[]>
} {
  if (options.boundHeap) boundHeapGrowth()
  const folder = resolve(options.folder)
  const store = createFsMindStore({ folder, location: options.location ?? options.folder })
  return {
    recall: (query, limit) =>
      recallMind(
        { store, recallShelf: openRecallShelf(folder, MIND_RECALL_FILE) },
        { query, limit },
      ),
  }
}
