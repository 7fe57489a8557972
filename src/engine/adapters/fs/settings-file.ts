/**
 * Reading a settings file the safe way. A repository's `_agent_context/somnus.json` is attacker
 * text: it is read only when it is a plain file (never through a symlink, never a FIFO that would
 * hang a hook) of at most 1 MiB. The user's `~/.somnus/settings.json` is trusted, so a symlink
 * there (a dotfiles manager) is followed, with the same size and file-type checks.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { SomnusError } from '../../core/errors.ts'
import { userSettingsPath } from './user-settings.ts'

/** Settings files larger than this are refused: a settings file is a few hundred bytes. */
const MAX_SETTINGS_BYTES = 1024 * 1024

/**
 * The text of the settings file at `path`, or null when it is missing; INVALID_INPUT, naming
 * the fix, for a symlink (unless `followLink`), a FIFO or device, or an oversized file.
 */
export function readSettingsFile(path: string, options: { followLink: boolean }): string | null {
  const flags =
    constants.O_RDONLY |
    (constants.O_NONBLOCK ?? 0) |
    (options.followLink ? 0 : (constants.O_NOFOLLOW ?? 0))
  let fd: number
  try {
    fd = openSync(path, flags)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    if (code === 'ELOOP') throw refused(path, 'is a symlink')
    throw refused(path, `cannot be read (${code ?? (error as Error).message})`)
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw refused(path, 'is not a plain file')
    if (stat.size > MAX_SETTINGS_BYTES)
      throw refused(path, `is larger than 1 MiB (${stat.size} bytes)`)
    const bytes = Buffer.alloc(stat.size)
    let offset = 0
    while (offset < bytes.length) {
      const read = readSync(fd, bytes, offset, bytes.length - offset, offset)
      if (read === 0) break
      offset += read
    }
    return bytes.subarray(0, offset).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** The user's `~/.somnus/settings.json` as text, or null when there is none. */
export function readUserSettings(env: Record<string, string | undefined>): {
  path: string
  text: string | null
} {
  const path = userSettingsPath(env)
  return { path, text: readSettingsFile(path, { followLink: true }) }
}

function refused(path: string, what: string): SomnusError {
  return new SomnusError(
    'INVALID_INPUT',
    `${path} ${what}: Somnus reads settings only from a plain file. Replace it with a plain JSON file or delete it to use the defaults.`,
    { details: { path } },
  )
}
