/** Use case: tag a moment for the next sleep (`bookmark add`). */

import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { addBookmark as addBookmarkToLedger } from '../core/ledger.ts'
import type { Bookmark } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Adds a bookmark (salience 1-3, default 2 as in agentcontext), secrets redacted, and returns it. */
export async function addBookmark(
  brain: Brain,
  input: { message: string; salience?: number; taskSlug?: string | null },
): Promise<Bookmark> {
  const now = brain.clock.now()
  const id = brain.ids.next('bm')
  return brain.state.update((state) => {
    const next = addBookmarkToLedger(state, {
      id,
      message: redactSecrets(input.message),
      salience: input.salience ?? 2,
      now,
      taskSlug: input.taskSlug ?? null,
    })
    const [bookmark] = next.bookmarks
    if (!bookmark) throw new Error('addBookmark returned no bookmark')
    return { state: next, result: bookmark }
  })
}
