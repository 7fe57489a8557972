/**
 * The ledger's inter-process lock in proper-lockfile's protocol: a folder made by `mkdir` (atomic),
 * kept fresh by touching its mtime, taken over once it has not been touched for `staleMs` (or is
 * dated more than `staleMs` ahead, by a skewed clock). Either this or proper-lockfile can hold it
 * against the other. Written out because the hook path pays for every module it loads:
 * proper-lockfile with graceful-fs and signal-exit costs ~6-9 ms of start-up, a third of the
 * SessionStart budget, for the few lines used here.
 */
import { mkdirSync, rmdirSync, statSync, utimesSync } from 'node:fs'

/** Settings of one lock. */
export interface LockOptions {
  /** The lock folder. */
  path: string
  /** A lock untouched for this long belongs to a dead process and is taken over. */
  staleMs: number
  /** How often a held lock is touched; well under `staleMs`. */
  updateMs: number
  /** Called if the lock was lost while held (taken over, or removed by hand). */
  onCompromised: (error: Error) => void
}

/** A lock this process holds. */
export interface HeldLock {
  /** Lets go of the lock; does nothing once released or lost. */
  release(): void
}

/** Locks held by this process, removed if it exits while holding them (an uncaught error). */
const held = new Set<string>()
let exitHookInstalled = false

/**
 * Takes the lock now, or throws an error with code `ELOCKED` when a live holder has it. A stale
 * lock (its holder died) is removed and taken once; this mirrors proper-lockfile's `lock()`.
 */
export function takeLock(options: LockOptions): HeldLock {
  if (!makeLockFolder(options.path)) {
    const touched = lockTouchedAt(options.path)
    // Touched within staleMs: its holder is alive. Stale: removed. Gone meanwhile: nothing to
    // remove. Then one more try, without a second stale check, as proper-lockfile does.
    if (touched !== null && isFresh(touched, options.staleMs)) throw lockedError(options.path)
    if (touched !== null) removeLockFolder(options.path)
    if (!makeLockFolder(options.path)) throw lockedError(options.path)
  }
  return holdLock(options)
}

function holdLock(options: LockOptions): HeldLock {
  const { path } = options
  let mtime = lockTouchedAt(path) ?? Date.now()
  let lastUpdate = Date.now()
  let released = false
  let timer: NodeJS.Timeout | undefined
  const lose = (problem: string) => {
    released = true
    held.delete(path)
    options.onCompromised(Object.assign(new Error(problem), { code: 'ECOMPROMISED' }))
  }
  // Touch the lock while it is held so that no one takes it for a dead process's lock.
  const refresh = () => {
    timer = undefined
    if (released) return
    try {
      if (lockTouchedAt(path) !== mtime)
        return lose('Unable to update lock within the stale threshold')
      const now = new Date()
      utimesSync(path, now, now)
      mtime = lockTouchedAt(path) ?? now.getTime()
      lastUpdate = Date.now()
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || lastUpdate + options.staleMs < Date.now()) {
        return lose(`${path} is gone: ${(error as Error).message}`)
      }
    }
    schedule()
  }
  const schedule = () => {
    timer = setTimeout(refresh, options.updateMs)
    timer.unref()
  }
  schedule()
  held.add(path)
  installExitHook()
  return {
    release() {
      if (timer) clearTimeout(timer)
      if (released) return
      released = true
      held.delete(path)
      removeLockFolder(path)
    },
  }
}

/**
 * True when a lock touched at `touched` has a live holder. Measured both ways: a holder touches it
 * every `updateMs`, so a date further ahead than `staleMs` is a clock that was wrong (a skewed or
 * reset clock), and trusting it would keep every writer out until that date.
 */
function isFresh(touched: number, staleMs: number): boolean {
  return Math.abs(Date.now() - touched) <= staleMs
}

/** True when this call created the folder; false when it already existed. */
function makeLockFolder(path: string): boolean {
  try {
    mkdirSync(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

/** The lock's mtime in ms, or null when it does not exist. */
function lockTouchedAt(path: string): number | null {
  try {
    return statSync(path).mtime.getTime()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function removeLockFolder(path: string): void {
  try {
    rmdirSync(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}

function lockedError(path: string): Error {
  return Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED', path })
}

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const path of held) {
      try {
        rmdirSync(path)
      } catch {
        // Exiting anyway: a lock left behind goes stale and is taken over.
      }
    }
  })
}
