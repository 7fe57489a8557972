/**
 * Finds the `_agent_context` folder for a working directory, as agentcontext does, but never
 * past the repository's root (a folder with `.git`) or the user's home, never through a symlink
 * and never one owned by another user: a planted `/tmp/_agent_context` must not capture the
 * sessions of every project below it (README, "Security").
 */
import { lstatSync, type Stats } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { CONTEXT_DIR_NAME } from '../../core/brain-layout.ts'
import { SomnusError } from '../../core/errors.ts'

/** How many parent folders are searched above the start folder (agentcontext's MAX_WALK_UP). */
const MAX_WALK_UP = 5

/**
 * The absolute path of the nearest `_agent_context` folder at or above `start`, or null. The
 * walk stops after a folder holding `.git` or the home folder `home`; OUTSIDE_BRAIN for a found
 * one that is a symlink or belongs to another user.
 */
export function findContextRoot(start: string, home?: string): string | null {
  let folder = resolve(start)
  const stopAt = resolve(home ?? process.env.HOME ?? '/nonexistent-home')
  for (let level = 0; level <= MAX_WALK_UP; level += 1) {
    const candidate = join(folder, CONTEXT_DIR_NAME)
    const found = statOrNull(candidate)
    if (found !== null) {
      if (found.isSymbolicLink()) {
        throw new SomnusError(
          'OUTSIDE_BRAIN',
          `Refused ${candidate}: it is a symlink. A brain must be a real folder inside the project: replace the link with a folder (somnus init), or set SOMNUS_CONTEXT_DIR.`,
          { details: { path: candidate } },
        )
      }
      if (found.isDirectory()) {
        const uid = process.getuid?.()
        if (uid !== undefined && found.uid !== uid) {
          throw new SomnusError(
            'OUTSIDE_BRAIN',
            `Refused ${candidate}: it belongs to another user (uid ${found.uid}), so it is not your brain. Run \`somnus init\` in your project, or set SOMNUS_CONTEXT_DIR.`,
            { details: { path: candidate } },
          )
        }
        return candidate
      }
    }
    if (folder === stopAt || statOrNull(join(folder, '.git')) !== null) break
    const parent = dirname(folder)
    if (parent === folder) break
    folder = parent
  }
  return null
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}
