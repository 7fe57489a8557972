/**
 * The machine's refusals (read-only folder, full disk, a file where a folder belongs) worded as
 * one line that names the path, the fault and the fix. Pure: it reads the error Node gave, so
 * each surface (CLI, hooks) can word a fault the same way without a stack trace.
 */
import { SomnusError } from './errors.ts'

/** What each errno means to a user, and what they can do about it. */
const FAULTS: Record<string, { fault: string; fix: string }> = {
  EROFS: {
    fault: 'the file system is read-only',
    fix: 'Remount it read-write, or run Somnus in a project folder you can write to.',
  },
  EACCES: {
    fault: 'permission denied',
    fix: 'Give your user write access to it (chmod or chown), or run Somnus as its owner.',
  },
  EPERM: {
    fault: 'the operation is not permitted',
    fix: 'Give your user write access to it (chmod or chown, and check `chattr -i`), or run Somnus as its owner.',
  },
  ENOSPC: {
    fault: 'the disk is full',
    fix: 'Free some space on that disk, then run the command again.',
  },
  EDQUOT: {
    fault: 'your disk quota is used up',
    fix: 'Free some space within your quota, then run the command again.',
  },
  EISDIR: {
    fault: 'it is a folder where Somnus expects a file',
    fix: 'Move that folder out of the way (or rename it), then run the command again.',
  },
  ENOTDIR: {
    fault: 'a part of it is a file where Somnus expects a folder',
    fix: 'Move that file out of the way (or rename it), then run the command again.',
  },
  EEXIST: {
    fault: 'something that is not a folder is already there',
    fix: 'Move it out of the way (or rename it), then run the command again.',
  },
  EMFILE: {
    fault: 'too many files are open',
    fix: 'Raise the open-file limit (`ulimit -n`) or close other programs, then run the command again.',
  },
  ENFILE: {
    fault: 'the system has too many files open',
    fix: 'Close other programs, then run the command again.',
  },
  EIO: {
    fault: 'the disk reported an input/output error',
    fix: 'Check the disk (dmesg, fsck) before running Somnus there again.',
  },
  ENAMETOOLONG: {
    fault: 'the path is too long',
    fix: 'Move the project to a shorter path, then run the command again.',
  },
}

/** What the failed system call was doing, as the start of the message. */
const ACTIONS: Record<string, string> = {
  open: 'Cannot open',
  read: 'Cannot read',
  write: 'Cannot write',
  mkdir: 'Cannot create the folder',
  rename: 'Cannot replace',
  scandir: 'Cannot list',
  unlink: 'Cannot remove',
  rmdir: 'Cannot remove',
  rm: 'Cannot remove',
  utime: 'Cannot touch',
  fsync: 'Cannot save',
  fchmod: 'Cannot set the mode of',
  fchown: 'Cannot set the owner of',
  realpath: 'Cannot resolve',
  stat: 'Cannot inspect',
  lstat: 'Cannot inspect',
}

/** A temporary file's suffix from atomic-write.ts: the message names the file it stands for. */
const TEMPORARY_SUFFIX = /\.\d+\.\d+\.[a-z0-9]*$/

/**
 * An ENVIRONMENT error for a Node file-system error the user can fix, or null for anything else
 * (a bug, which deserves its stack). Somnus's own errors are returned as null too.
 */
export function environmentFault(error: unknown): SomnusError | null {
  if (typeof error !== 'object' || error === null || error instanceof SomnusError) return null
  const { code, syscall, path } = error as { code?: unknown; syscall?: unknown; path?: unknown }
  if (typeof code !== 'string') return null
  const known = FAULTS[code]
  if (known === undefined) return null
  const action = (typeof syscall === 'string' && ACTIONS[syscall]) || 'Cannot use'
  const where = typeof path === 'string' ? ` ${path.replace(TEMPORARY_SUFFIX, '')}` : ''
  return new SomnusError(
    'ENVIRONMENT',
    `${action}${where}: ${known.fault} (${code}). ${known.fix}`,
    {
      cause: error,
      details: { errno: code, ...(typeof path === 'string' ? { path } : {}) },
    },
  )
}
