/** The text files of a brain (`_agent_context/`): core files, knowledge, tasks, features. */
import { SomnusError } from '../core/errors.ts'

/**
 * Text files addressed by slash-separated paths relative to the context root. Every adapter
 * refuses a path that would leave the root (`..`, an absolute path, a NUL byte, a symlink out)
 * with OUTSIDE_BRAIN, before it reads or writes anything.
 */
export interface BrainFiles {
  /** The file's text, or null when it does not exist. */
  read(path: string): Promise<string | null>
  /** Creates or replaces the file atomically (a reader sees the old or the new text, never half). */
  write(path: string, text: string): Promise<void>
  /** Deletes the file; no error when it is already gone. */
  remove(path: string): Promise<void>
  /** File names (not folders) directly inside `folder`, sorted; empty when the folder is missing. */
  list(folder: string): Promise<string[]>
}

/**
 * Throws OUTSIDE_BRAIN unless `path` is relative and stays below its root by its text alone: no
 * `..` segment, no leading `/` or `\`, no drive letter, no NUL byte. `place` names the root in the
 * message. Symlinks are the adapter's to check: only the file system knows them.
 */
export function refuseEscapingPath(path: string, place: string): void {
  const problem = escapeProblem(path)
  if (problem === null) return
  throw new SomnusError(
    'OUTSIDE_BRAIN',
    `Refused the path ${JSON.stringify(path)}: ${problem}. Somnus reads and writes only inside ${place}: name a path relative to it, without "..".`,
    { details: { path } },
  )
}

function escapeProblem(path: string): string | null {
  if (path.includes('\0')) return 'it contains a NUL byte'
  if (/^([\\/]|[A-Za-z]:)/.test(path)) return 'it is an absolute path'
  if (path.split(/[\\/]/).includes('..')) return 'it climbs out with ".."'
  return null
}
