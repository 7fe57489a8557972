/**
 * The hook's entry, `dist/hook.cjs` (`dist/hook.js` is the same as ESM): runs the hook bundle
 * (`dist/hook-bundle.cjs`, built from hook-main.ts by scripts/bundle-hook.mjs) with a V8 code
 * cache, so that only the first run of a build parses and compiles it. Measured on Node 20: ~7 ms
 * of a ~40 ms SessionStart, a third of what a hook may spend beyond starting node (Node 22 does
 * the same with enableCompileCache).
 * The cache lives in `~/.somnus/cache`, one file per build, Node version and event (each event
 * compiles different functions). It is only an accelerator: V8 rejects a cache that does not
 * fit, and any problem with it just means compiling as usual.
 * With SOMNUS_SKIP_HOOKS=1 (core/skip-hooks.ts) it loads nothing and the process just ends.
 */
import type { Script } from 'node:vm'
import { SKIP_HOOKS_VALUE, SKIP_HOOKS_VARIABLE } from '../../core/skip-hooks.ts'

/** Set by scripts/bundle-hook.mjs: a hash of the bundle, so a new build never meets an old cache. */
declare const SOMNUS_HOOK_BUILD: string

const fs = process.getBuiltinModule('node:fs')
const path = process.getBuiltinModule('node:path')
const vm = process.getBuiltinModule('node:vm')

// The CommonJS build (what hook commands and bin/somnus.js run) has __dirname; building a file URL and back cost
// ~1 ms of every hook start there. The ES module build finds its folder from its URL.
const here =
  typeof __dirname === 'string'
    ? __dirname
    : process.getBuiltinModule('node:url').fileURLToPath(new URL('.', import.meta.url))
const bundlePath = path.join(here, 'hook-bundle.cjs')

/** `~/.somnus/cache/hook-<build>-<node>-<arch>-<event>.bin`, or null without a home folder. */
function cachePath(): string | null {
  const home = process.env.HOME || process.env.USERPROFILE
  if (!home) return null
  const event = (process.argv[2] === 'hook' ? process.argv[3] : process.argv[2]) ?? ''
  const name = `hook-${SOMNUS_HOOK_BUILD}-${process.version}-${process.arch}-${event.replace(/[^a-z-]/g, '')}.bin`
  return path.join(home, '.somnus', 'cache', name)
}

function readCache(file: string | null): Buffer | undefined {
  if (file === null) return undefined
  try {
    return fs.readFileSync(file)
  } catch {
    return undefined
  }
}

/** Cache files kept: a few builds (two installs may share a home) of each hook event. */
const KEEP_CACHE_FILES = 24

/**
 * Saves what V8 compiled during this run, written whole and renamed so readers never see half,
 * then trims the folder to the newest files (one new file per upgrade would pile up otherwise).
 */
function saveCache(script: Script, file: string): void {
  try {
    const data = script.createCachedData()
    const folder = path.dirname(file)
    fs.mkdirSync(folder, { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    fs.writeFileSync(temporary, data)
    fs.renameSync(temporary, file)
    const files = fs
      .readdirSync(folder)
      .filter((name) => name.startsWith('hook-') && name.endsWith('.bin'))
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

/** Loads the hook bundle (through the code cache) and runs it. */
function runBundle(): void {
  const cacheFile = cachePath()
  const cached = readCache(cacheFile)
  // The CommonJS wrapper, as Node's own loader uses it.
  const source = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(bundlePath, 'utf8')}\n})`
  const script = new vm.Script(source, {
    filename: bundlePath,
    ...(cached === undefined ? {} : { cachedData: cached }),
  })
  if (cacheFile !== null && (cached === undefined || script.cachedDataRejected === true)) {
    // At exit, the cache holds every function this event compiled, not just the top level.
    process.once('exit', () => saveCache(script, cacheFile))
  }
  const bundleModule = { exports: {} }
  // The bundle takes built-in modules from process.getBuiltinModule; require is only a fallback.
  const lazyRequire = (id: string): unknown =>
    process.getBuiltinModule('node:module').createRequire(bundlePath)(id)
  script.runInThisContext()(
    bundleModule.exports,
    lazyRequire,
    bundleModule,
    bundlePath,
    path.dirname(bundlePath),
  )
}

// The child `claude -p` of `--model claude-cli` runs with hooks off: one environment read, before
// any file is touched, and the process ends with nothing said (stdin unread is fine for Claude Code).
if (process.env[SKIP_HOOKS_VARIABLE] !== SKIP_HOOKS_VALUE) runBundle()
