/** Where the shared datasets live (`../shared` beside the repository), and whether they are there. */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** `../shared` from the repository root (override with SOMNUS_SHARED_DIR). */
export const SHARED_DIR = process.env.SOMNUS_SHARED_DIR ?? resolve(REPO_ROOT, '../shared')

/** The real Claude Code transcripts folder. */
export const TRANSCRIPTS_DIR = join(SHARED_DIR, 'datasets/claude-code-transcripts')

/** The LoCoMo development conversations folder. */
export const LOCOMO_DIR = join(SHARED_DIR, 'datasets/locomo-dev')

/** True when the shared datasets are present; tests that need them use `describe.skipIf(!HAS_SHARED)`. */
export const HAS_SHARED = existsSync(TRANSCRIPTS_DIR) && existsSync(LOCOMO_DIR)

/** The message a skipped data test prints, once, so a user knows why it did not run. */
export const SHARED_SKIP_REASON = `shared datasets not found at ${SHARED_DIR}: clone the project beside ../shared (or set SOMNUS_SHARED_DIR) to run the real-data tests`

if (!HAS_SHARED && !process.env.SOMNUS_QUIET_SKIPS) {
  process.stderr.write(`[somnus tests] ${SHARED_SKIP_REASON}\n`)
}
