/**
 * The lock a `sleep run` holds for its whole run, so that two runs never consolidate one brain at
 * once (the second would plan from a ledger the first is about to clear). A folder holding its
 * owner's host and pid, renamed into place (atomic), touched while held. It is never waited for:
 * a second run is told at once, and SessionStart leaves a journal to the run that is writing it.
 * A run killed with SIGKILL cannot remove its lock, so a lock whose owner is a dead process on
 * this host is taken over at once; one owned on another host goes stale after a minute untouched.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import type { Exclusive } from '../../ports/sleep-state-store.ts'

/**
 * A lock untouched this long is stale whoever owns it. Generous, because a long extractive pass
 * keeps the event loop busy and so delays the refresh.
 */
const STALE_MS = 60_000
const UPDATE_MS = 5_000
const OWNER_FILE = 'owner'

/** Runs `task` holding the consolidation lock at `path`, or returns `{ ran: false }` if it is held. */
export async function holdConsolidationLock<T>(
  path: string,
  task: () => Promise<T>,
): Promise<Exclusive<T>> {
  mkdirSync(dirname(path), { recursive: true })
  if (!take(path) && !(isStale(path) && setAsideStale(path) && take(path))) return { ran: false }
  const onExit = () => release(path)
  process.once('exit', onExit)
  const timer = setInterval(() => touch(path), UPDATE_MS)
  timer.unref()
  try {
    return { ran: true, value: await task() }
  } finally {
    clearInterval(timer)
    process.removeListener('exit', onExit)
    release(path)
  }
}

/**
 * True when this call made the lock. The folder is made under a name of its own with its owner
 * written, then renamed into place: a lock is never seen without its owner, however a process
 * dies. Its own staging folders left by killed processes are removed on the way.
 */
function take(path: string): boolean {
  const staging = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`
  mkdirSync(staging)
  writeFileSync(join(staging, OWNER_FILE), `${hostname()}\n${process.pid}\n`)
  try {
    renameSync(staging, path)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false
    throw error
  }
  removeDeadStagingFolders(path)
  return true
}

function removeDeadStagingFolders(path: string): void {
  const folder = dirname(path)
  const prefix = `${basename(path)}.`
  for (const name of readdirSync(folder)) {
    const pid = Number(name.slice(prefix.length).split('.')[0])
    if (name.startsWith(prefix) && Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(join(folder, name), { recursive: true, force: true })
    }
  }
}

/** True while a live process holds the consolidation lock at `path`. */
export function isConsolidationHeld(path: string): boolean {
  return touchedAt(path) !== null && !isStale(path)
}

function isStale(path: string): boolean {
  const touched = touchedAt(path)
  if (touched === null) return true
  const age = Math.abs(Date.now() - touched)
  if (age > STALE_MS) return true
  const owner = ownerOf(path)
  // Ownerless: not one of ours (every lock is renamed into place with its owner inside).
  if (owner === null) return true
  return owner.host === hostname() && !isAlive(owner.pid)
}

/**
 * Moves a stale lock out of the way by rename, which only one of several racing processes can
 * do; the others find it gone and then lose the race for the new folder.
 */
function setAsideStale(path: string): boolean {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`
  try {
    renameSync(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
    throw error
  }
  rmSync(aside, { recursive: true, force: true })
  return true
}

function ownerOf(path: string): { host: string; pid: number } | null {
  try {
    const [host = '', pid = ''] = readFileSync(join(path, OWNER_FILE), 'utf8').split('\n')
    const number = Number(pid)
    return Number.isInteger(number) && number > 0 ? { host, pid: number } : null
  } catch {
    return null
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function touchedAt(path: string): number | null {
  try {
    return statSync(path).mtimeMs
  } catch {
    return null
  }
}

function touch(path: string): void {
  try {
    const now = new Date()
    utimesSync(path, now, now)
  } catch {
    // Gone (removed by hand): the run finishes anyway; its journal keeps it all-or-nothing.
  }
}

function release(path: string): void {
  // Only our own lock is removed: one set aside as stale by another process is no longer here.
  const owner = ownerOf(path)
  if (owner === null || owner.pid !== process.pid || owner.host !== hostname()) return
  rmSync(path, { recursive: true, force: true })
}
