/**
 * Appending lines to a log Somnus owns (the hook log, the pattern jobs' failures), the safe way:
 * inside a brain every folder on the way must be real and the file a plain one (never a symlink,
 * a FIFO or a hard link: no-follow-file.ts); a large log is rotated to `<name>.1` first.
 */
import { lstatSync, mkdirSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
import { confineTo } from './confined-path.ts'
import { appendFileNoFollowSync } from './no-follow-file.ts'

/**
 * Appends `text` to the log at `path`. With `within` (a brain) the path must lead through real
 * folders inside it (OUTSIDE_BRAIN otherwise); without (the user's own `~/.somnus`) the folders
 * are made as they are. Past `rotateBytes` the log is renamed to `<path>.1` first (a rename moves a
 * name, never a link's target).
 */
export function appendLogFile(options: {
  path: string
  text: string
  within: string | null
  rotateBytes: number
}): void {
  const { path } = options
  if (options.within === null) mkdirSync(dirname(path), { recursive: true })
  else confineTo(options.within).prepareWrite(path)
  if (sizeOf(path) > options.rotateBytes) renameSync(path, `${path}.1`)
  appendFileNoFollowSync(path, options.text)
}

function sizeOf(path: string): number {
  try {
    return lstatSync(path).size
  } catch {
    return 0
  }
}
