/**
 * Runs a CommonJS bundle through a V8 code cache, so that only the first run of a build parses
 * and compiles it: the hook (`dist/hook.cjs`, hook-loader.ts) and the CLI (`dist/cli.cjs`,
 * cli-loader.ts) start this way. Measured on Node 20: ~7 ms of a ~40 ms SessionStart, ~20 ms of
 * a `somnus sleep status` (Node 22 does the same with enableCompileCache).
 * The cache lives in `~/.somnus/cache`, one file per bundle, build, Node version and entry (each
 * hook event or CLI noun compiles different functions). It is only an accelerator: V8 rejects a
 * cache that does not fit, and any problem with it just means compiling as usual.
 * Built into each loader by esbuild; Node's built-in modules come from process.getBuiltinModule,
 * so a loader imports nothing.
 */
import type { Script } from 'node:vm'

const fs = process.getBuiltinModule('node:fs')
const path = process.getBuiltinModule('node:path')
const vm = process.getBuiltinModule('node:vm')

/** Which bundle to run, and how its cache files are named. */
export interface CachedBundle {
  /** The bundle's absolute path. */
  path: string
  /** `hook` or `cli`: the cache files' prefix, each kind trimmed on its own. */
  kind: string
  /** A hash of the bundle (set at build time): a new build never meets an old cache. */
  build: string
  /** What this run executes (a hook event, a CLI noun): letters and dashes are kept. */
  entry: string
  /**
   * The loader's own require, when it is a CommonJS module in the bundle's package: what the
   * bundle requires resolves the same from either. Otherwise one is made from node:module on
   * the first require (loading node:module costs ~1 ms).
   */
  require?: NodeJS.Require
}

/** Cache files kept per kind: a few builds (two installs may share a home) of each entry. */
const KEEP_CACHE_FILES = 24

/** Loads the bundle (through its code cache) and runs it as a CommonJS module. */
export function runCachedBundle(bundle: CachedBundle): void {
  const cacheFile = cachePath(bundle)
  const cached = readCache(cacheFile)
  // The CommonJS wrapper, as Node's own loader uses it.
  const source = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(bundle.path, 'utf8')}\n})`
  const marked = cached !== undefined && cacheFile !== null && markLoading(cacheFile)
  const script = new vm.Script(source, {
    filename: bundle.path,
    ...(cached === undefined ? {} : { cachedData: cached }),
  })
  if (marked) remove(`${cacheFile}.loading`)
  if (cacheFile !== null && (cached === undefined || script.cachedDataRejected === true)) {
    // At exit, the cache holds every function this run compiled, not just the top level.
    process.once('exit', () => saveCache(script, cacheFile, bundle.kind))
  }
  const bundleModule = { exports: {} }
  let bundleRequire = bundle.require
  // Made on the first require() only: the hook bundle takes built-in modules from
  // process.getBuiltinModule and may never need one.
  const lazyRequire = (id: string): unknown => {
    bundleRequire ??= process.getBuiltinModule('node:module').createRequire(bundle.path)
    return bundleRequire(id)
  }
  script.runInThisContext()(
    bundleModule.exports,
    lazyRequire,
    bundleModule,
    bundle.path,
    path.dirname(bundle.path),
  )
}

/** `~/.somnus/cache/<kind>-<build>-<node>-<arch>-<entry>.bin`, or null without a home folder. */
function cachePath(bundle: CachedBundle): string | null {
  const home = process.env.HOME || process.env.USERPROFILE
  if (!home) return null
  const entry = bundle.entry.replace(/[^a-z-]/g, '')
  const name = `${bundle.kind}-${bundle.build}-${process.version}-${process.arch}-${entry}.bin`
  return path.join(home, '.somnus', 'cache', name)
}

/**
 * The cache's bytes, unless the last run that loaded them never got past loading them: V8 checks
 * a cache's version, flags and length, not its contents, and a damaged one (a bad disk block)
 * crashes the process as it loads ("Fatal error ... unreachable code", every run until it is
 * deleted). So each load leaves a `.loading` mark until it is through; a mark found means a run
 * died there (or one is loading it right now: the cache is then just made again), and the cache
 * is deleted unread.
 */
function readCache(file: string | null): Buffer | undefined {
  if (file === null) return undefined
  if (fs.existsSync(`${file}.loading`)) {
    remove(file)
    remove(`${file}.loading`)
    return undefined
  }
  try {
    return fs.readFileSync(file)
  } catch {
    return undefined
  }
}

/** Leaves the mark readCache looks for; false when it cannot (a read-only folder). */
function markLoading(file: string): boolean {
  try {
    fs.writeFileSync(`${file}.loading`, '')
    return true
  } catch {
    return false // unmarked: a damaged cache would crash every run, as before marks existed
  }
}

function remove(path: string): void {
  try {
    fs.unlinkSync(path)
  } catch {
    // Gone already, or not ours to delete: the next run tries again.
  }
}

/**
 * Saves what V8 compiled during this run, written whole and renamed so readers never see half,
 * then trims the folder to the newest files of this kind (one new file per upgrade would pile
 * up otherwise).
 */
function saveCache(script: Script, file: string, kind: string): void {
  try {
    const data = script.createCachedData()
    const folder = path.dirname(file)
    fs.mkdirSync(folder, { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    fs.writeFileSync(temporary, data)
    fs.renameSync(temporary, file)
    const files = fs
      .readdirSync(folder)
      .filter((name) => name.startsWith(`${kind}-`) && name.endsWith('.bin'))
      .map((name) => path.join(folder, name))
    if (files.length <= KEEP_CACHE_FILES) return
    const byAge = files
      .map((name) => ({ name, time: fs.statSync(name).mtimeMs }))
      .sort((a, b) => b.time - a.time)
    for (const { name } of byAge.slice(KEEP_CACHE_FILES)) fs.rmSync(name, { force: true })
  } catch {
    // No cache this time: the next run compiles again and tries once more.
  }
}
