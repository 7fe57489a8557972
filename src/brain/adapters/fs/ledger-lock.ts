/**
 * The sleep ledger's inter-process lock (proper-lockfile's protocol, via fs-lock.ts): refuse a
 * planted lock path, queue changes in memory per process, and wait for the lock with jittered
 * backoff until a deadline. On the hook path, like the ledger store that uses it.
 */
import { lstatSync } from 'node:fs'
import { takeLock } from '../../../engine/adapters/fs/fs-lock.ts'
import { SomnusError } from '../../../engine/core/errors.ts'

/** Backoff between lock attempts: starts small because most changes hold the lock a few ms. */
const FIRST_RETRY_MS = 4
const LONGEST_RETRY_MS = 120

/**
 * Refuses a lock path that is not a folder or missing: a symlink there would have the lock's
 * stale check touch a file outside the brain, and a plain file would never be taken.
 */
export function refuseStrangeLock(shown: string, path: string): void {
  let stat: { isDirectory(): boolean; isSymbolicLink(): boolean }
  try {
    stat = lstatSync(path)
  } catch {
    return
  }
  if (stat.isSymbolicLink()) {
    throw new SomnusError(
      'OUTSIDE_BRAIN',
      `Refused ${shown}: the ledger's lock is a symlink, which could lead outside the brain. Delete it (rm ${JSON.stringify(shown)}) and run the command again.`,
    )
  }
  if (!stat.isDirectory()) {
    throw new SomnusError(
      'ENVIRONMENT',
      `Cannot lock the sleep ledger: ${shown} is a file, but Somnus uses that name for a lock folder. Delete it (rm ${JSON.stringify(shown)}) and run the command again.`,
    )
  }
}

/** Runs `task` holding the inter-process lock, retrying with jittered backoff until the deadline. */
export async function holdingLock<T>(
  settings: {
    stateDir: string
    lockPath: string
    staleMs: number
    lockWaitMs: number
    warn: (message: string) => void
  },
  task: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + settings.lockWaitMs
  let delay = FIRST_RETRY_MS
  let lock: { release(): void }
  for (;;) {
    try {
      lock = takeLock({
        path: settings.lockPath,
        staleMs: settings.staleMs,
        updateMs: Math.max(1_000, Math.floor(settings.staleMs / 2)),
        // A lost lock must not kill a hook: it is reported, and the change goes on.
        onCompromised: (error) =>
          settings.warn(
            `lost the lock on ${settings.lockPath} (${error.message}); another process may have written the ledger at the same time.`,
          ),
      })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      if (Date.now() >= deadline) {
        throw new SomnusError(
          'STATE_LOCKED',
          `The sleep ledger is locked by another somnus process (waited ${settings.lockWaitMs} ms). Retry in a moment; if no somnus process is running, delete ${settings.lockPath}.`,
          { cause: error },
        )
      }
      // Jitter spreads waiters out so they do not all retry in the same instant.
      await sleep(delay * (0.5 + Math.random()))
      delay = Math.min(delay * 1.5, LONGEST_RETRY_MS)
    }
  }
  try {
    return await task()
  } finally {
    // A lost lock is not ours to remove; release() then does nothing.
    try {
      lock.release()
    } catch {
      // Removing the lock folder failed: it goes stale and the next writer takes it over.
    }
  }
}

/** One in-flight change per lock per process: waiting in memory is cheaper than polling a lock. */
const queues = new Map<string, Promise<unknown>>()

/** Runs `task` after every earlier task of `key` in this process has settled. */
export function serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve()
  const run = previous.then(task, task)
  const settled = run.catch(() => undefined)
  queues.set(key, settled)
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key)
  })
  return run
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}
