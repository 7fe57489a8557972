/** Debian's chromium for playwright-core browser tests, and why a test skips without it. */
import { existsSync } from 'node:fs'

/** The chromium binary (override with SOMNUS_CHROMIUM). */
export const CHROMIUM_PATH =
  process.env.SOMNUS_CHROMIUM ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium'

/** True when the browser is installed. */
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH)

/** The message a skipped browser test prints. */
export const CHROMIUM_SKIP_REASON = `chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set SOMNUS_CHROMIUM) to run the browser tests`

if (!HAS_CHROMIUM && !process.env.SOMNUS_QUIET_SKIPS) {
  process.stderr.write(`[somnus tests] ${CHROMIUM_SKIP_REASON}\n`)
}
