/**
 * The Stop inbox on disk (brain/core/stop-inbox.ts says what it is for): `.sleep-inbox.jsonl` beside
 * the ledger, appended to without the lock, and retired copies `.sleep-inbox.jsonl.<ms>.<pid>`.
 *
 * Why retire instead of truncate or delete: a Stop may have opened the live file just before the
 * merge and write just after it; its line then lands in the file the merge read. Truncating or
 * deleting would lose it. Renamed, the file keeps every line written through an open descriptor,
 * and merges read retired files again (ids make that harmless) until one has not been written for
 * RETIRED_KEEP_MS, far longer than a hook lives (Claude Code kills a Stop after 5 s).
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { SomnusError } from '../../../engine/core/errors.ts'
import { inboxLine, parseInbox, type QueuedStop } from '../../core/stop-inbox.ts'

/** The live inbox's name inside the state folder. */
export const STOP_INBOX_FILE = '.sleep-inbox.jsonl'
/** What follows the live name in a retired file's name. */
const RETIRED_SUFFIX = /^\.\d+\.\d+$/
/** A retired file untouched for this long is read one last time, then removed. */
const RETIRED_KEEP_MS = 60_000
/** Inserted in the name of a refused live inbox moved aside: RETIRED_SUFFIX never matches it. */
const REFUSED_SUFFIX = '.refused'
/** More than this in one file is not an inbox of Stops (each line is a few KB at most). */
const INBOX_MAX_BYTES = 32 * 1024 * 1024

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0
/** A FIFO planted under the inbox's name must not block the hook: open it non-blocking. */
const NON_BLOCKING = constants.O_NONBLOCK ?? 0

/** One inbox file as read under the lock. */
export interface InboxFile {
  path: string
  live: boolean
  stops: QueuedStop[]
  rejected: number
  modifiedMs: number
}

/**
 * Appends `stop` to the live inbox in the (checked, real) state folder `stateDir`: one write of
 * one whole line with O_APPEND, which the kernel never interleaves with another writer's line.
 * Opened without following a symlink, and refused unless it is a regular file.
 */
export function appendToInbox(stateDir: string, stop: QueuedStop): void {
  const path = join(stateDir, STOP_INBOX_FILE)
  const line = Buffer.from(inboxLine(stop), 'utf8')
  const flags =
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NO_FOLLOW | NON_BLOCKING
  const fd = openSync(path, flags, 0o600)
  try {
    if (!fstatSync(fd).isFile()) throw notAFile(path)
    const written = writeSync(fd, line, 0, line.length)
    if (written !== line.length) {
      throw new SomnusError(
        'ENVIRONMENT',
        `The Stop inbox ${path} took ${written} of ${line.length} bytes (is the disk full?); the turn was not recorded.`,
      )
    }
  } finally {
    closeSync(fd)
  }
}

/**
 * The live and retired inbox files in `stateDir`, read. A file that is not a regular file, or is
 * too large, is reported through `warn` and left out. With `setAside` (only under the ledger
 * lock), a live file so refused is also renamed to a name no merge reads: a planted symlink, FIFO
 * or oversized file left under the live name would swallow every Stop queued after it.
 */
export function readInboxFiles(
  stateDir: string,
  warn: (message: string) => void,
  setAside = false,
): InboxFile[] {
  let names: string[]
  try {
    names = readdirSync(stateDir)
  } catch {
    return []
  }
  const files: InboxFile[] = []
  for (const name of names) {
    if (!name.startsWith(STOP_INBOX_FILE)) continue
    const live = name === STOP_INBOX_FILE
    if (!live && !RETIRED_SUFFIX.test(name.slice(STOP_INBOX_FILE.length))) continue
    const path = join(stateDir, name)
    try {
      const read = readInboxFile(path)
      if (read !== null) files.push({ path, live, ...read, ...parseInbox(read.text) })
    } catch (error) {
      warn(`skipped the Stop inbox ${path}: ${(error as Error).message}`)
      if (live && setAside) setAsideRefused(path, warn)
    }
  }
  return files
}

/** Renames a refused live inbox aside (the link itself, never its target), so Stops start anew. */
function setAsideRefused(path: string, warn: (message: string) => void): void {
  const aside = `${path}${REFUSED_SUFFIX}.${Date.now()}.${process.pid}`
  try {
    renameSync(path, aside)
    warn(`moved the refused Stop inbox aside to ${aside}: new Stops start a fresh inbox`)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      warn(`could not move the refused Stop inbox ${path} aside: ${(error as Error).message}`)
  }
}

/**
 * After the ledger holds every Stop of `files`: the live file is renamed aside (new Stops start a
 * new one), and retired files untouched for RETIRED_KEEP_MS are removed. Failures are reported:
 * the next merge tries again, and ids keep a Stop from counting twice meanwhile.
 */
export function retireInboxFiles(
  files: readonly InboxFile[],
  nowMs: number,
  warn: (message: string) => void,
): void {
  for (const file of files) {
    try {
      if (file.live) renameSync(file.path, `${file.path}.${nowMs}.${process.pid}`)
      else if (nowMs - file.modifiedMs > RETIRED_KEEP_MS) unlinkSync(file.path)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        warn(`could not retire the Stop inbox ${file.path}: ${(error as Error).message}`)
    }
  }
}

/** The file's text and mtime; null when it is gone. Never follows a symlink, never blocks. */
function readInboxFile(path: string): { text: string; modifiedMs: number } | null {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw notAFile(path)
    if (stats.size > INBOX_MAX_BYTES)
      throw new Error(`${stats.size} bytes, over the ${INBOX_MAX_BYTES}-byte cap`)
    const buffer = Buffer.allocUnsafe(stats.size)
    let length = 0
    while (length < buffer.length) {
      const bytes = readSync(fd, buffer, length, buffer.length - length, length)
      if (bytes === 0) break
      length += bytes
    }
    return { text: buffer.toString('utf8', 0, length), modifiedMs: stats.mtimeMs }
  } finally {
    closeSync(fd)
  }
}

function notAFile(path: string): SomnusError {
  return new SomnusError(
    'OUTSIDE_BRAIN',
    `Refused ${path}: the Stop inbox must be a regular file. Delete it (rm ${JSON.stringify(path)}).`,
  )
}
