/**
 * The hook-sized part of pattern learning: the settings, and the read-before-act index SessionStart
 * shows (seed 002 item 1, docs/design/origins.md). Encoding and consolidation never run in a hook
 * process: the hook starts a detached `somnus patterns` run (surfaces/hooks/pattern-jobs.ts) and
 * returns.
 */
import { existsSync } from 'node:fs'
import { createFsFolderFiles } from './adapters/fs/fs-folder-files.ts'
import { patternsBaseDir } from './adapters/fs/pattern-locations.ts'
import { activeNewestFirst } from './app/list-patterns.ts'
import { readPatternFiles } from './app/read-patterns.ts'
import { patternFolderOf, readPatternSettings } from './compose-patterns.ts'
import { renderPatternIndex } from './core/pattern-index.ts'
import type { PatternSettings } from './core/pattern-settings.ts'

export { readPatternSettings } from './compose-patterns.ts'
export { createRandomGate } from './core/random-gate.ts'

/** The index for the project `cwd` is in, within `maxChars` (whole lines only); '' when off or empty. */
export async function patternIndexFor(options: {
  cwd: string
  env: Record<string, string | undefined>
  settings: PatternSettings
  maxChars: number
}): Promise<string> {
  const { settings } = options
  if (!settings.enabled || settings.index_entries === 0) return ''
  // No pattern folder of any project yet (nothing encoded): nothing to find the project for.
  if (!existsSync(patternsBaseDir(settings.dir, options.env))) return ''
  // Only the pattern folder: SessionStart needs neither auto memory's settings nor the lock.
  const { patternsDir } = patternFolderOf(options.cwd, options.env, settings)
  const files = await readPatternFiles({ patterns: createFsFolderFiles(patternsDir) })
  const entries = activeNewestFirst([...files.values()].flatMap((file) => file.entries))
  for (let limit = settings.index_entries; limit > 0; limit -= 1) {
    const text = renderPatternIndex(entries, limit)
    if (text.length <= options.maxChars) return text
  }
  return ''
}

/** Settings for the brain at `contextRoot`; a broken `patterns` value turns patterns off, with a warning. */
export function patternSettingsOrOff(
  contextRoot: string,
  env: Record<string, string | undefined>,
  warn: (message: string) => void,
  onDisk = true,
): PatternSettings {
  if (!onDisk) return { ...readPatternSettings(null, {}), enabled: false }
  try {
    return readPatternSettings(contextRoot, env)
  } catch (error) {
    warn(`pattern learning off: ${(error as Error).message}`)
    return { ...readPatternSettings(null, {}), enabled: false }
  }
}

/** Stop-started pattern runs of one project are at least this far apart (bounds a burst of Stops). */
const STOP_JOB_SPACING_MS = 60_000

/**
 * True when a Stop may start its pattern runs now: none was started for this project in the last
 * minute. Seed 002's gates make a run rare on average, but many quick turns (or many sessions at
 * once) could still start a pile of encodes; this keeps it to one a minute. Stamps the claim.
 */
export function claimStopPatternJob(options: {
  cwd: string
  env: Record<string, string | undefined>
  settings: PatternSettings
  now: number
}): boolean {
  const { mkdirSync, statSync, writeFileSync } = process.getBuiltinModule('node:fs')
  const { join } = process.getBuiltinModule('node:path')
  const folder = patternFolderOf(options.cwd, options.env, options.settings).patternsDir
  const stamp = join(folder, '.somnus-stop-job')
  try {
    if (options.now - statSync(stamp).mtimeMs < STOP_JOB_SPACING_MS) return false
  } catch {
    // No stamp yet: the first run.
  }
  mkdirSync(folder, { recursive: true })
  writeFileSync(stamp, `${new Date(options.now).toISOString()}\n`)
  return true
}
