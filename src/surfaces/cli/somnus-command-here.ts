/**
 * How the commands that `somnus` prints for Claude name Somnus when run from the CLI: bare
 * `somnus` only when that name on PATH is this very install; otherwise the absolute command the
 * hooks use, so the commands run where Somnus is a dev dependency (`npm i -D`, no `somnus` on PATH).
 */
import { realpathSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { somnusCliCommand } from '../../brain/brain-values.ts'
import { findPackageRoot } from './commands/init.ts'

/**
 * `somnus` when a PATH folder (not a `node_modules/.bin`, which only npx and npm scripts put on
 * PATH, never Claude Code's shell) holds a `somnus` that resolves to this install's
 * `bin/somnus.js`; else `"<node>" "<package>/bin/somnus.js"`.
 */
export function somnusCommandHere(env: Record<string, string | undefined>): string {
  const packageRoot = findPackageRoot()
  const ownBin = realPath(join(packageRoot, 'bin', 'somnus.js'))
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '' || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(folder)) continue
    const found = realPath(join(folder, 'somnus'))
    if (found !== null && found === ownBin) return 'somnus'
  }
  return somnusCliCommand(process.execPath, packageRoot)
}

function realPath(path: string): string | null {
  try {
    return realpathSync(path)
  } catch {
    return null
  }
}
