/**
 * The hook's entry, `dist/hook.cjs` (`dist/hook.js` is the same as ESM): runs the hook bundle
 * (`dist/hook-bundle.cjs`, built from hook-main.ts by scripts/bundle-hook.mjs) through a V8 code
 * cache (see cached-bundle.ts), one per event, so that only the first run of a build parses and
 * compiles it.
 * With SOMNUS_SKIP_HOOKS=1 (engine/core/skip-hooks.ts) it loads nothing and the process just ends.
 */
import { SKIP_HOOKS_VALUE, SKIP_HOOKS_VARIABLE } from '../../engine/core/skip-hooks.ts'
import { runCachedBundle } from '../cached-bundle.ts'

/** Set by scripts/bundle-hook.mjs: a hash of the bundle, so a new build never meets an old cache. */
declare const SOMNUS_HOOK_BUILD: string

// The CommonJS build (what hook commands and bin/somnus.js run) has __dirname; building a file URL and back cost
// ~1 ms of every hook start there. The ES module build finds its folder from its URL.
const here =
  typeof __dirname === 'string'
    ? __dirname
    : process.getBuiltinModule('node:url').fileURLToPath(new URL('.', import.meta.url))

// The child `claude -p` of `--model claude-cli` runs with hooks off: one environment read, before
// any file is touched, and the process ends with nothing said (stdin unread is fine for Claude Code).
if (process.env[SKIP_HOOKS_VARIABLE] !== SKIP_HOOKS_VALUE) {
  runCachedBundle({
    path: process.getBuiltinModule('node:path').join(here, 'hook-bundle.cjs'),
    kind: 'hook',
    build: SOMNUS_HOOK_BUILD,
    entry: (process.argv[2] === 'hook' ? process.argv[3] : process.argv[2]) ?? '',
  })
}
