/**
 * The pattern folder's lock: one encode or consolidation at a time per project, so two encodes of
 * one session (Stop's and SessionEnd's) never interleave their read-plan-write. The ledger's lock
 * protocol (fs-lock.ts); waiting is a retry loop, since these runs are detached from the agent.
 */

import { takeLock } from '../../../engine/adapters/fs/fs-lock.ts'
import { SomnusError } from '../../../engine/core/errors.ts'

const STALE_MS = 15_000
const UPDATE_MS = 3_000
const RETRY_MS = 100

/** Runs `work` holding the lock folder `path`, waiting at most `waitMs` for it. */
export async function withPatternLock<T>(
  path: string,
  waitMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + waitMs
  for (;;) {
    try {
      const lock = takeLock({
        path,
        staleMs: STALE_MS,
        updateMs: UPDATE_MS,
        onCompromised: () => {},
      })
      try {
        return await work()
      } finally {
        lock.release()
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      if (Date.now() >= deadline) {
        throw new SomnusError(
          'STATE_LOCKED',
          `Another pattern encode or consolidation holds ${path}. Wait for it to finish, or remove the folder if no somnus process is running.`,
        )
      }
      await new Promise((done) => setTimeout(done, RETRY_MS))
    }
  }
}
