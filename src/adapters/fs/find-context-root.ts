/** Finds the `_agent_context` folder for a working directory, as agentcontext does. */
import { statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { CONTEXT_DIR_NAME } from '../../core/brain-layout.ts'

/** How many parent folders are searched above the start folder (agentcontext's MAX_WALK_UP). */
const MAX_WALK_UP = 5

/** The absolute path of the nearest `_agent_context` folder at or above `start`, or null. */
export function findContextRoot(start: string): string | null {
  let folder = resolve(start)
  for (let level = 0; level <= MAX_WALK_UP; level += 1) {
    const candidate = join(folder, CONTEXT_DIR_NAME)
    if (isDirectory(candidate)) return candidate
    const parent = dirname(folder)
    if (parent === folder) break
    folder = parent
  }
  return null
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
