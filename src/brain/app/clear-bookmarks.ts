/** Use case: drop every bookmark (`bookmark clear`). */
import { clearBookmarks as clearBookmarksInLedger } from '../core/ledger.ts'
import type { Brain } from './brain.ts'

/** Clears the bookmarks and returns how many there were. */
export async function clearBookmarks(brain: Brain): Promise<number> {
  return brain.state.update((state) => ({
    state: clearBookmarksInLedger(state),
    result: state.bookmarks.length,
  }))
}
