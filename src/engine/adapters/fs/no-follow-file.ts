/**
 * Opening a file to write without following a symlink, and only when it is a plain file: the
 * one way Somnus appends (hook log, pattern job log, creature logs) or writes in place (the
 * ledger's fire counts). A repository can plant anything under `_agent_context/`: a symlink to
 * `~/.bashrc` (O_NOFOLLOW refuses it: ELOOP), a FIFO that would block the hook (O_NONBLOCK, then
 * fstat refuses it), a hard link to a file elsewhere (a second link count refuses it). Node has no
 * openat, so the folders on the way are checked by the caller (ConfinedFolder.prepareWrite).
 */
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs'
import { SomnusError } from '../../core/errors.ts'
import { namingPath } from './atomic-write.ts'

// O_NOFOLLOW and O_NONBLOCK do not exist on Windows; there the caller's folder checks still apply.
const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * A descriptor of the plain file at `path`, opened with `flags` plus O_NOFOLLOW and O_NONBLOCK;
 * OUTSIDE_BRAIN for a symlink, a FIFO, a device or a file with more than one link.
 */
export function openPlainFileNoFollow(path: string, flags: number, mode = 0o666): number {
  let fd: number
  try {
    fd = openSync(path, flags | NO_FOLLOW, mode)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // ELOOP: a symlink; ENXIO: a FIFO nobody reads. (A folder in its place is EISDIR, as is.)
    if (code === 'ELOOP' || code === 'ENXIO') throw refused(path, code)
    throw namingPath(error, path)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw refused(path, 'not a plain file')
    if (stat.nlink > 1) throw refused(path, 'a hard link')
  } catch (error) {
    closeSync(fd)
    throw error
  }
  return fd
}

/** Appends `text` (UTF-8) to the plain file at `path`, made when missing (mode 0666 less the umask). */
export function appendFileNoFollowSync(path: string, text: string): void {
  const fd = openPlainFileNoFollow(
    path,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
  )
  try {
    // One write of the whole text: O_APPEND keeps concurrent hooks' lines whole.
    const bytes = Buffer.from(text, 'utf8')
    let offset = 0
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset)
  } catch (error) {
    throw namingPath(error, path)
  } finally {
    closeSync(fd)
  }
}

function refused(path: string, what: string): SomnusError {
  const kind = what === 'ELOOP' ? 'a symlink' : what === 'ENXIO' ? 'a FIFO' : what
  return new SomnusError(
    'OUTSIDE_BRAIN',
    `Refused ${path}: it is ${kind}, not a plain file of Somnus's own, so writing to it could land elsewhere. Remove it (rm ${JSON.stringify(path)}) and run again.`,
    { details: { path } },
  )
}
