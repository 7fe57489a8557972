/**
 * The UserPromptSubmit hook's recall: asks the brain's shelf (never the transcripts: the hook
 * stays light) with the prompt's terms, keeps the hits above the relevance floor that the
 * session's snapshot did not show, and renders them (brain/core/recall/prompt-recall.ts).
 */

import type { MemoryHit } from '../../../engine/app/recall/recall-memory.ts'
import type { RecallQuery } from '../../../engine/ports/recall.ts'
import {
  aboveFloor,
  alreadyShown,
  PROMPT_RECALL_LIMITS,
  promptTerms,
  renderPromptRecall,
} from '../../core/recall/prompt-recall.ts'

/** What prompt recall needs: a search over the indexed brain, and what the snapshot showed. */
export interface PromptRecallDeps {
  /** Hits from the brain's existing index (no indexing on this path). */
  search(query: RecallQuery): Promise<MemoryHit[]>
  /** The normalized lines the session's SessionStart showed (empty when unknown). */
  shown(): Promise<string[]>
}

/** Snippet characters asked per hit; the render cuts to the shared budget. */
const SNIPPET_CHARS = 280

/** The block to add to the prompt, or null when nothing clearly bears on it. */
export async function promptRecall(deps: PromptRecallDeps, prompt: string): Promise<string | null> {
  const terms = promptTerms(prompt)
  if (terms.length === 0) return null
  const hits = await deps.search({
    text: terms.join(' '),
    limit: PROMPT_RECALL_LIMITS.hits * 2,
    snippetChars: SNIPPET_CHARS,
  })
  const relevant = hits.filter((hit) => aboveFloor(hit.text, terms))
  if (relevant.length === 0) return null
  const shown = await deps.shown()
  return renderPromptRecall(relevant.filter((hit) => !alreadyShown(hit.text, shown)))
}
