/** Finding the brain from a working folder, for the CLI and hooks (re-exported by createSomnus). */
import { findContextRoot } from '../engine/adapters/fs/find-context-root.ts'
import { CONTEXT_DIR_NAME } from '../engine/core/brain-layout.ts'
import { SomnusError } from '../engine/core/errors.ts'

/** The context root for `options`, or a CONTEXT_NOT_FOUND error that says how to create one. */
export function locateBrain(options: {
  /** Where to start looking for `_agent_context` (walks up at most 5 folders, never past a `.git` folder or home). */
  cwd: string
  /** `SOMNUS_CONTEXT_DIR` here names the folder outright. */
  env: Record<string, string | undefined>
  /** Use exactly this context root instead of searching. */
  root?: string
}): string {
  const explicit = options.root ?? options.env.SOMNUS_CONTEXT_DIR
  if (explicit) return explicit
  const found = findContextRoot(options.cwd, options.env.HOME)
  if (found) return found
  throw new SomnusError(
    'CONTEXT_NOT_FOUND',
    `No ${CONTEXT_DIR_NAME}/ folder in ${options.cwd} or above it (up to the repository root or your home folder, at most 5 levels). Run \`somnus init\` in your project, or set SOMNUS_CONTEXT_DIR.`,
  )
}
