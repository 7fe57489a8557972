/**
 * Makes sure `dist/` (the CLI and the hook bundle `dist/hook.js`) is built from the current
 * sources before a test spawns `node bin/somnus.js`. Test files run in parallel processes, so
 * the build takes a lock folder; a build newer than every source file is reused.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (not taken from shared-data.ts, so benchmarks can use this quietly). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** The CLI entry tests spawn: `node <BIN> hook stop`. */
export const SOMNUS_BIN = join(REPO_ROOT, 'bin', 'somnus.js')
/** The hook entry that `somnus init` wires into Claude Code's settings (`node <it> <event>`). */
export const HOOK_ENTRY = join(REPO_ROOT, 'dist', 'hook.cjs')

/** The hook bundle. */
export const HOOK_BUNDLE = join(REPO_ROOT, 'dist', 'hook.js')

const OUTPUTS = [HOOK_BUNDLE, join(REPO_ROOT, 'dist', 'cli.cjs')]
const LOCK = join(
  tmpdir(),
  `somnus-build-${Buffer.from(REPO_ROOT).toString('hex').slice(-24)}.lock`,
)
const LOCK_STALE_MS = 5 * 60_000

/** Builds unless the outputs are newer than the sources; SOMNUS_SKIP_BUILD=1 trusts dist as is. */
export async function ensureBuilt(): Promise<void> {
  if (process.env.SOMNUS_SKIP_BUILD === '1' && isBuilt()) return
  await withLock(() => {
    if (isFresh()) return
    try {
      execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'pipe', timeout: 300_000 })
    } catch (error) {
      const output = error as { stdout?: Buffer; stderr?: Buffer }
      throw new Error(
        `npm run build failed:\n${output.stdout?.toString() ?? ''}${output.stderr?.toString() ?? ''}`,
      )
    }
  })
}

function isBuilt(): boolean {
  return OUTPUTS.every((path) => mtimeOf(path) > 0)
}

function isFresh(): boolean {
  if (!isBuilt()) return false
  const built = Math.min(...OUTPUTS.map(mtimeOf))
  return newestSource(join(REPO_ROOT, 'src')) <= built
}

function newestSource(folder: string): number {
  let newest = 0
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, mtimeOf(path))
  }
  return newest
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}

async function withLock(task: () => void): Promise<void> {
  const deadline = Date.now() + LOCK_STALE_MS
  for (;;) {
    try {
      mkdirSync(LOCK)
      break
    } catch {
      if (Date.now() - mtimeOf(LOCK) > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`build lock ${LOCK} held too long`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    task()
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
}
