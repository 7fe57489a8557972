/**
 * `recall`: ranked search over total recall (conversation, dreams) and the markdown files, on
 * the recall engine: the creature's index is kept beside it and brought up to date before each
 * query (a new line re-indexes only its chunk), so a query costs a search, not a pass over
 * 200,000 lines.
 */

import { recallMemory } from '../../engine/app/recall/recall-memory.ts'
import { refreshRecallShelf } from '../../engine/app/recall/refresh-recall-shelf.ts'
import type { RecallShelf } from '../../engine/ports/recall-sources.ts'
import type { RecallHit } from '../core/recall.ts'
import type { MindDeps } from './mind-deps.ts'
import { mindRecallSources } from './mind-recall-sources.ts'

/** Characters of a hit's text shown. */
const HIT_CHARS = 300

/** The best `limit` lines for `query`, each naming its file and line. */
export async function recallMind(
  deps: Pick<MindDeps, 'store'> & { recallShelf: RecallShelf },
  request: { query: string; limit?: number },
): Promise<RecallHit[]> {
  const sources = mindRecallSources(deps.store)
  await refreshRecallShelf(deps.recallShelf, sources, () => undefined)
  const hits = await recallMemory([{ index: deps.recallShelf.index, sources }], {
    text: request.query,
    limit: request.limit ?? 10,
    snippetChars: HIT_CHARS,
  })
  return hits.map((hit) => {
    const colon = hit.location.lastIndexOf(':')
    return {
      file: hit.location.slice(0, colon),
      line: Number(hit.location.slice(colon + 1)),
      score: hit.score,
      text: hit.snippet,
      t: hit.date ?? undefined,
    }
  })
}
