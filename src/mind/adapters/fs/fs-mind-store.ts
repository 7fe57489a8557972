/**
 * A creature's memory in a folder (`.self/` by default). Changes run under the repo's
 * inter-process lock (a `mkdir` lock folder, `.mind.lock`), logs grow by appends, the state and
 * the documents are replaced by atomic rename: a killed process leaves every file readable.
 */
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  unlinkSync,
} from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicSync } from '../../../engine/adapters/fs/atomic-write.ts'
import { confineTo } from '../../../engine/adapters/fs/confined-path.ts'
import { type HeldLock, takeLock } from '../../../engine/adapters/fs/fs-lock.ts'
import { appendFileNoFollowSync } from '../../../engine/adapters/fs/no-follow-file.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import { MIND_FILE_NAMES, type MindFiles, type MindStore } from '../../ports/mind-store.ts'

/** How long `exclusive` waits for another process's change before giving up. */
const LOCK_WAIT_MS = 30_000
/** A lock untouched this long belongs to a dead process. */
const LOCK_STALE_MS = 10_000
const LOCK_UPDATE_MS = 2_000

/** Options of the folder store. */
export interface FsMindStoreOptions {
  /** The creature folder; created when missing. */
  folder: string
  /** How the creature names it in messages. @default the folder as given */
  location?: string
  /** How long to wait for the lock. @default 30 s */
  lockWaitMs?: number
}

/** The creature memory in `folder`. */
export function createFsMindStore(options: FsMindStoreOptions): MindStore {
  const { folder } = options
  // Every file is reached through the confined folder: a symlink that leads out is refused.
  const confined = confineTo(folder)
  const path = (name: keyof typeof MIND_FILE_NAMES) => confined.resolve(MIND_FILE_NAMES[name])
  const ensureFolder = () => confined.prepareFolder(folder)
  const writable = (name: keyof typeof MIND_FILE_NAMES) => confined.prepareWrite(path(name))
  const counter = lineCounter()
  const slices = lineSlices()
  const files: MindFiles = {
    readState: async () => confined.readText(path('state')),
    writeState: async (text) => {
      writeFileAtomicSync(writable('state'), text.endsWith('\n') ? text : `${text}\n`)
    },
    appendLog: async (log, lines) => {
      if (lines.length === 0) return
      const target = writable(log)
      const separator = endsTorn(target) ? '\n' : ''
      // One write call: concurrent readers see whole lines or none of the new ones.
      appendFileNoFollowSync(target, `${separator}${lines.map((line) => `${line}\n`).join('')}`)
    },
    readLog: async (log) => {
      const text = confined.readText(path(log)) ?? ''
      const lines = text.split('\n')
      if (lines.at(-1) === '') lines.pop()
      return lines
    },
    readLogLines: async (log, start, count) => slices.read(path(log), start, count),
    countLines: async (log) => counter.count(writable(log)),
    readDocument: async (document) => confined.readText(path(document)),
    writeDocument: async (document, text) => {
      writeFileAtomicSync(writable(document), text)
    },
    appendDocument: async (document, text) => {
      appendFileNoFollowSync(writable(document), text)
    },
  }
  const waitMs = options.lockWaitMs ?? LOCK_WAIT_MS
  return {
    location: options.location ?? folder,
    fileName: (name) => MIND_FILE_NAMES[name],
    files,
    async holdConsolidation() {
      ensureFolder()
      try {
        return takeLock({
          path: join(folder, '.consolidation.lock'),
          staleMs: LOCK_STALE_MS,
          updateMs: LOCK_UPDATE_MS,
          onCompromised: () => {
            // Taken over after a stall: the commit checks the claim id and drops a stale result.
          },
        })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return null
        throw error
      }
    },
    async exclusive(work) {
      ensureFolder()
      const lock = await acquire(join(folder, '.mind.lock'), waitMs)
      try {
        sweepTemporaryFiles(folder)
        return await work(files)
      } finally {
        lock.release()
      }
    },
  }
}

/** `mind-state.json.<pid>.<n>.<random>`: the atomic writer's temporary file of a creature file. */
const TEMPORARY = new RegExp(
  `^(?:${Object.values(MIND_FILE_NAMES)
    .map((name) => name.replace(/[.]/g, '\\.'))
    .join('|')})\\.\\d+\\.\\d+\\.[a-z0-9]+$`,
)

/**
 * Removes the temporary files of a writer killed mid-write. Every creature file is written under
 * the lock, so one found by the lock's holder belongs to a dead process.
 */
function sweepTemporaryFiles(folder: string): void {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return
  }
  for (const name of names) {
    if (!TEMPORARY.test(name)) continue
    try {
      unlinkSync(join(folder, name))
    } catch {
      // Gone already: nothing to sweep.
    }
  }
}

async function acquire(path: string, waitMs: number): Promise<HeldLock> {
  const deadline = Date.now() + waitMs
  let pause = 5
  for (;;) {
    try {
      return takeLock({
        path,
        staleMs: LOCK_STALE_MS,
        updateMs: LOCK_UPDATE_MS,
        onCompromised: () => {
          // Lost to a takeover after a stall longer than the stale time: the work in hand still
          // finishes; the logs are append-only and the state is replaced whole, so nothing tears.
        },
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      if (Date.now() >= deadline) {
        throw new SomnusError(
          'STATE_LOCKED',
          `The creature folder is locked by another process (${path}) for over ${Math.round(waitMs / 1000)} s. Wait for it to finish; a lock left by a killed process is taken over after ${LOCK_STALE_MS / 1000} s.`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause))
      pause = Math.min(pause * 2, 100)
    }
  }
}

/**
 * Counts a log's lines reading only what was appended since the last count: a log only grows, so
 * the newlines before the remembered size are still there. A file that shrank is counted again.
 */
function lineCounter() {
  const known = new Map<string, { size: number; newlines: number }>()
  return {
    count(path: string): number {
      let size: number
      try {
        size = statSync(path).size
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
        throw error
      }
      let { size: from, newlines } = known.get(path) ?? { size: 0, newlines: 0 }
      if (size < from) {
        from = 0
        newlines = 0
      }
      if (size > from) {
        const fd = openSync(path, 'r')
        try {
          const chunk = Buffer.alloc(Math.min(size - from, 1 << 20))
          for (let at = from; at < size; ) {
            const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at)
            if (read === 0) break
            for (let index = 0; index < read; index += 1) if (chunk[index] === 0x0a) newlines += 1
            at += read
          }
        } finally {
          closeSync(fd)
        }
        known.set(path, { size, newlines })
      }
      return newlines + (endsTorn(path) ? 1 : 0)
    },
  }
}

/**
 * Reads a slice of a log's lines without reading the log whole. Where the last slice ended (a line
 * number and its byte offset) is remembered, so reading a log chunk after chunk reads each byte
 * once; an earlier line, or a file that shrank, starts from the top.
 */
function lineSlices() {
  const ends = new Map<string, { line: number; offset: number }>()
  // One read buffer for every slice: a megabyte per call would wait for a GC to be given back.
  const chunk = Buffer.alloc(1 << 20)
  return {
    read(path: string, start: number, count: number): string[] {
      if (count <= 0) return []
      let fd: number
      try {
        fd = openSync(path, 'r')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      }
      try {
        const size = fstatSync(fd).size
        let { line, offset } = ends.get(path) ?? { line: 0, offset: 0 }
        if (line > start || offset > size) {
          line = 0
          offset = 0
        }
        const lines: string[] = []
        let partial: Buffer[] = []
        let at = offset
        reading: while (at < size) {
          const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at)
          if (read === 0) break
          let from = 0
          for (let index = 0; index < read; index += 1) {
            if (chunk[index] !== 0x0a) continue
            if (line >= start) {
              partial.push(chunk.subarray(from, index))
              lines.push(Buffer.concat(partial).toString('utf8'))
            }
            partial = []
            line += 1
            from = index + 1
            offset = at + from
            if (lines.length === count) break reading
          }
          if (line >= start && from < read) partial.push(Buffer.from(chunk.subarray(from, read)))
          at += read
        }
        // A torn last line is a line, as readLog gives it; the next slice starts before it.
        if (lines.length < count && partial.length > 0)
          lines.push(Buffer.concat(partial).toString('utf8'))
        ends.set(path, { line, offset })
        return lines
      } finally {
        closeSync(fd)
      }
    },
  }
}

/** True when the file exists, is not empty and does not end in a newline (a torn last line). */
function endsTorn(path: string): boolean {
  let size: number
  try {
    size = statSync(path).size
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
  if (size === 0) return false
  const fd = openSync(path, 'r')
  try {
    const last = Buffer.alloc(1)
    readSync(fd, last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } finally {
    closeSync(fd)
  }
}
