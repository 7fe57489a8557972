/** Use case: the pending bookmarks (`bookmark list`), most salient first. */
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { Bookmark } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Bookmarks by salience (★★★ first), newest first within a salience, secrets redacted. */
export async function listBookmarks(brain: Brain): Promise<Bookmark[]> {
  const { bookmarks } = await brain.state.read()
  // Array sort is stable, so the ledger's newest-first order survives within each salience.
  // A ledger written before redaction existed may still hold a secret in a message.
  return [...bookmarks]
    .sort((left, right) => right.salience - left.salience)
    .map((bookmark) => ({ ...bookmark, message: redactSecrets(bookmark.message) }))
}
