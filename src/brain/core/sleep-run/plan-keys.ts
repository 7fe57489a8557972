/**
 * The planner names the documents it edits by stable keys, which are their seed paths
 * (`core/2.memory.md`): its routing and archive rules are written in those terms. These two
 * functions are the only crossing between the keys and documents, so a use case never builds one.
 */
import { type BrainDocument, documentAt, documentPath } from '../../../engine/core/brain-layout.ts'

/** The planner's key for `document`. */
export function planKey(document: BrainDocument): string {
  return documentPath(document)
}

/** The document behind a key the planner produced; throws on a key no document has (a planner bug). */
export function documentOfPlanKey(key: string): BrainDocument {
  const document = documentAt(key)
  if (document === null) throw new Error(`The sleep planner produced a key no document has: ${key}`)
  return document
}
