/**
 * Keeps every file Somnus touches inside the folder it owns. A path is refused by its text first
 * (`..`, absolute, NUL), then by where it really leads: folders are resolved with realpath
 * (symlinks included) and must stay below the owned folder's own realpath, checked before any
 * folder is made or any byte written. A read may follow a symlink that stays inside; one that
 * leads out is refused with OUTSIDE_BRAIN. A write goes through real folders to a plain file only:
 * a symlinked folder below the root or a symlink in the file's place is refused, even inside.
 * Reads are on the hook path (SessionStart reads ~125 files in a handful of folders): each folder
 * is resolved once per process and the file is opened with O_NOFOLLOW, so a plain file costs no
 * more than before; only a symlinked file (ELOOP) pays for a realpath.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  realpathSync,
  rmSync,
} from 'node:fs'
import { basename, dirname, join, relative, resolve as resolvePath, sep } from 'node:path'
import { SomnusError } from '../../core/errors.ts'
import { refuseEscapingPath } from '../../ports/brain-files.ts'
import { namingPath } from './atomic-write.ts'

/** A folder Somnus owns, and the checked ways to reach what is below it. */
export interface ConfinedFolder {
  /** The folder as given (not resolved). */
  readonly root: string
  /** `<root>/<path>` for a relative slash-separated path; OUTSIDE_BRAIN for `..`, absolute or NUL. */
  resolve(path: string): string
  /** The bytes of the file at `absolute` (below root), or null when it is missing. */
  readBytes(absolute: string): Buffer | null
  /**
   * The first `maxBytes` of the file (UTF-8) and its whole size, as `readBytes` finds it: a
   * 123 MB file planted in a repository costs the cap, not its size.
   */
  readTextAtMost(absolute: string, maxBytes: number): { text: string; bytes: number } | null
  /** The file's text (UTF-8), as `readBytes` finds it. */
  readText(absolute: string): string | null
  /** The real path to write `absolute` to: its folders made and every step checked. */
  prepareWrite(absolute: string): string
  /** The real path of folder `absolute`, made if missing and checked. */
  prepareFolder(absolute: string): string
  /** The real path of folder `absolute`, checked, or null when it does not exist. */
  existingFolder(absolute: string): string | null
  /** Deletes the file (or the link itself) at `absolute`; nothing when it is missing. */
  remove(absolute: string): void
}

// O_NOFOLLOW does not exist on Windows; there the folder checks still apply. Node takes numeric
// flags wherever it takes string ones; its types only list the strings.
// O_NONBLOCK: a FIFO planted under a brain file's name reads as empty instead of hanging a hook.
const READ_NO_FOLLOW = (constants.O_RDONLY |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0)) as unknown as string

/** The first `maxBytes` of the file at `path` opened with `flag`, and the file's size. */
function readAtMost(path: string, flag: string, maxBytes: number): { data: Buffer; bytes: number } {
  const descriptor = openSync(path, flag)
  try {
    const bytes = fstatSync(descriptor).size
    const data = Buffer.allocUnsafe(Math.min(bytes, maxBytes))
    let filled = 0
    while (filled < data.length) {
      const count = readSync(descriptor, data, filled, data.length - filled, null)
      if (count === 0) break
      filled += count
    }
    return { data: data.subarray(0, filled), bytes }
  } finally {
    closeSync(descriptor)
  }
}

/** The owned folder `root` (it need not exist yet: `init` creates it through here). */
export function confineTo(root: string): ConfinedFolder {
  let rootReal: string | null = null
  /** Real paths of folders already found inside, so each is resolved once per process. */
  const insideFolders = new Map<string, string>()

  const realRoot = (): string => {
    if (rootReal !== null) return rootReal
    // The owned folder itself must be a real folder: a committed `_agent_context` symlink (or a
    // tenant's creature folder linked elsewhere) would make everything below it land elsewhere.
    if (isSymlink(root)) {
      throw new SomnusError(
        'OUTSIDE_BRAIN',
        `Refused ${root}: it is a symlink. Somnus reads and writes only a real folder: replace the symlink with a folder (or run \`somnus init\` after removing it).`,
        { details: { path: root } },
      )
    }
    const real = realpathOfExisting(root)
    // Cached only once the folder exists; until then it is worked out from its nearest parent.
    if (real.missing.length === 0) rootReal = real.path
    return join(real.path, ...real.missing)
  }

  const refuseUnlessInside = (shown: string, real: string): string => {
    const owned = realRoot()
    if (real === owned || real.startsWith(owned.endsWith(sep) ? owned : owned + sep)) return real
    throw new SomnusError(
      'OUTSIDE_BRAIN',
      `Refused ${shown}: it leads to ${real}, outside ${root}. Somnus reads and writes only inside its own folder: remove the symlink on the way (or point it inside ${root}).`,
      { details: { path: shown, target: real } },
    )
  }

  const prefix = root.endsWith('/') || root.endsWith(sep) ? root : `${root}/`
  const resolvedRoot = resolvePath(root)
  const refuseUnlessBelowRoot = (absolute: string): void => {
    // The quick test passes every path made by `resolve`; the slow one, paths spelt differently.
    if (absolute === root || absolute.startsWith(prefix)) return
    const resolved = resolvePath(absolute)
    if (resolved === resolvedRoot || resolved.startsWith(resolvedRoot + sep)) return
    throw new SomnusError(
      'OUTSIDE_BRAIN',
      `Refused ${absolute}: it is not inside ${root}. Somnus reads and writes only inside its own folder.`,
      { details: { path: absolute } },
    )
  }

  /** The folder's real path if it exists and is inside; null when missing. */
  const checkedFolder = (folder: string): string | null => {
    const known = insideFolders.get(folder)
    if (known !== undefined) return known
    let real: string
    try {
      real = realpathSync.native(folder)
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
    refuseUnlessInside(folder, real)
    insideFolders.set(folder, real)
    return real
  }

  const prepareFolder = (folder: string): string => {
    refuseUnlessBelowRoot(folder)
    const nearest = realpathOfExisting(folder)
    // The part of the way that exists must already lead inside; when even the root is missing,
    // everything from the root down is made fresh.
    const depth = relative(root, folder).split(sep).filter(Boolean).length
    if (nearest.missing.length <= depth) {
      refuseUnlessInside(folder, join(nearest.path, ...nearest.missing))
    }
    if (nearest.missing.length > 0) makeFolders(nearest.path, nearest.missing)
    // Checked again once made: a link planted meanwhile is caught here, before the write.
    insideFolders.delete(folder)
    const real = checkedFolder(folder)
    if (real === null) throw new Error(`${folder} vanished while it was being made`)
    // Every folder below the root must be a real folder: a symlink among them, even one that
    // stays inside, makes the path mean something other than its text.
    const spelt = join(realRoot(), relative(resolvedRoot, resolvePath(folder)))
    if (real !== spelt) {
      insideFolders.delete(folder)
      throw new SomnusError(
        'OUTSIDE_BRAIN',
        `Refused ${folder}: a folder on the way is a symlink (it leads to ${real}). Somnus writes only through real folders inside ${root}: replace the symlink with a folder.`,
        { details: { path: folder, target: real } },
      )
    }
    return real
  }

  /**
   * The file's content, or null when it is missing. The flag goes to readFileSync itself, which
   * reads UTF-8 text in one native call: the check costs no extra open or close.
   */
  function readFile(absolute: string, encoding: undefined): Buffer | null
  function readFile(absolute: string, encoding: 'utf8'): string | null
  function readFile(absolute: string, encoding: 'utf8' | undefined): Buffer | string | null {
    refuseUnlessBelowRoot(absolute)
    if (checkedFolder(dirname(absolute)) === null) return null
    try {
      return readFileSync(absolute, { encoding, flag: READ_NO_FOLLOW })
    } catch (error) {
      if (isMissing(error)) return null
      // Not ELOOP: a folder (EISDIR) or a fault, named with its path for the message.
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw namingPath(error, absolute)
    }
    // A symlink: followed only when its target is inside.
    const real = realpathOrNull(absolute)
    if (real === null) return null
    return readFileSync(refuseUnlessInside(absolute, real), { encoding })
  }

  return {
    root,
    resolve(path) {
      refuseEscapingPath(path, root)
      return `${root}/${path}`
    },
    readBytes(absolute) {
      return readFile(absolute, undefined)
    },
    readText(absolute) {
      return readFile(absolute, 'utf8')
    },
    readTextAtMost(absolute, maxBytes) {
      refuseUnlessBelowRoot(absolute)
      if (checkedFolder(dirname(absolute)) === null) return null
      let read: { data: Buffer; bytes: number } | null = null
      try {
        read = readAtMost(absolute, READ_NO_FOLLOW, maxBytes)
      } catch (error) {
        if (isMissing(error)) return null
        if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw namingPath(error, absolute)
      }
      if (read === null) {
        const real = realpathOrNull(absolute)
        if (real === null) return null
        read = readAtMost(refuseUnlessInside(absolute, real), 'r', maxBytes)
      }
      return { text: read.data.toString('utf8'), bytes: read.bytes }
    },
    prepareWrite(absolute) {
      refuseUnlessBelowRoot(absolute)
      const folder = prepareFolder(dirname(absolute))
      const target = join(folder, basename(absolute))
      if (!isSymlink(target)) return target
      const real = realpathOrNull(target)
      if (real !== null) refuseUnlessInside(absolute, real)
      // Never written through, even when it stays inside: the writers open without following.
      throw new SomnusError(
        'OUTSIDE_BRAIN',
        `Refused ${absolute}: it is a symlink${real === null ? ' to a file that does not exist' : ` (to ${real})`}. Somnus writes only plain files: remove the symlink.`,
        { details: { path: absolute } },
      )
    },
    prepareFolder,
    existingFolder(absolute) {
      refuseUnlessBelowRoot(absolute)
      return checkedFolder(absolute)
    },
    remove(absolute) {
      refuseUnlessBelowRoot(absolute)
      const folder = checkedFolder(dirname(absolute))
      // rm does not follow a final symlink: the link, inside the folder, is what goes.
      if (folder !== null) rmSync(join(folder, basename(absolute)), { force: true })
    },
  }
}

/**
 * Makes `missing` below the existing folder `base`, one at a time: a recursive mkdir reports
 * ENOENT on a read-only file system, and the user should read EROFS.
 */
function makeFolders(base: string, missing: string[]): void {
  let folder = base
  for (const name of missing) {
    folder = join(folder, name)
    try {
      mkdirSync(folder)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}

/** The realpath of `path`'s nearest existing ancestor (or itself) and the names missing below it. */
function realpathOfExisting(path: string): { path: string; missing: string[] } {
  const missing: string[] = []
  let current = path
  for (;;) {
    try {
      return { path: realpathSync.native(current), missing }
    } catch (error) {
      const parent = dirname(current)
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error
      missing.unshift(basename(current))
      current = parent
    }
  }
}

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path)
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch (error) {
    if (isMissing(error)) return false
    throw error
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
