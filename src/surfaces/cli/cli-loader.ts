/**
 * The CLI's entry, `dist/cli.cjs` (which bin/somnus.js requires): runs the CLI bundle
 * (`dist/cli/bundle.cjs`, built from main.ts by scripts/bundle-cli.mjs) through a V8 code cache
 * (see cached-bundle.ts), one per noun, so that only the first run of a build parses and
 * compiles what a command uses.
 */
import { runCachedBundle } from '../cached-bundle.ts'

/** Set by scripts/bundle-cli.mjs: a hash of the bundle, so a new build never meets an old cache. */
declare const SOMNUS_CLI_BUILD: string

runCachedBundle({
  path: process.getBuiltinModule('node:path').join(__dirname, 'cli', 'bundle.cjs'),
  kind: 'cli',
  build: SOMNUS_CLI_BUILD,
  // The noun: each compiles its own functions (`help <noun>` and `--help` alike stay apart).
  entry: process.argv.slice(2).find((argument) => !argument.startsWith('-')) ?? 'none',
  // dist/cli.cjs is CommonJS, in the same package as the bundle.
  require,
})
