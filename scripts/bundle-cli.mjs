// Builds the CLI as the hook is built (scripts/bundle-hook.mjs): one CommonJS bundle,
// dist/cli/bundle.cjs (src/surfaces/cli/main.ts and everything it uses), run by a 1 KB loader,
// dist/cli.cjs (cli-loader.ts, which bin/somnus.js requires), through a V8 code cache per noun.
// Measured on Node 20 (bench/cli-startup.ts), each choice saves start-up time:
// - one file, where an ES module build split by command loaded ~40 chunks for `sleep status`,
//   each read, compiled and linked on its own; code reached by import() stays in the file but
//   runs only when a command needs it (esbuild wraps it);
// - the code cache: a command's later runs skip parsing and compiling what it used;
// - the dependencies that everyday commands never touch (the tokenizer's 2.7 MB of tables, SQL,
//   HTTP, cron) are not in it: they are required from node_modules when a command needs them;
// - the top-level help lists the nouns from summaries taken here (see run-cli.ts), so
//   `somnus --help` loads no command at all.
// The CPU pool's worker threads (service work, the extractive model) load their own entry,
// dist/cli/cpu-worker.js, found beside the bundle: the service's worker (src/service/cpu-worker.ts),
// whose tasks include the engine's, so the extractive model's own pool finds what it runs there too.
// The library API (`dist/index.js`) is tsc's output, built apart.
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { build } from 'esbuild'
// tsc has built dist/ by now (npm run build).
import { commandSummaries } from '../dist/surfaces/cli/run-cli.js'

const OUT_DIR = 'dist/cli'
const BUNDLE = `${OUT_DIR}/bundle.cjs`
/** Small and used by everyday commands: in the bundle. Every other dependency stays outside. */
const BUNDLED = new Set(['commander', 'zod', 'stemmer'])
const dependencies = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies)
const external = dependencies
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`])

/**
 * Commander requires node:child_process (and with it net, dgram, ...: ~4 ms) for executable
 * subcommands, which Somnus has none of: it gets a stand-in that requires the module on first use.
 */
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(context) {
    context.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('/node_modules/commander/')
        ? { path: 'child_process', namespace: 'lazy-builtin' }
        : undefined,
    )
    context.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents:
        'let loaded\nmodule.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] })',
      loader: 'js',
    }))
  },
}

rmSync(OUT_DIR, { recursive: true, force: true })
await build({
  entryPoints: ['src/surfaces/cli/main.ts'],
  outfile: BUNDLE,
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external,
  plugins: [lazyChildProcessForCommander],
  // A script run by the code cache has no ES module loader: import() of a package becomes
  // require() (each dependency left outside has a CommonJS entry).
  supported: { 'dynamic-import': false },
  // import.meta.url is this file's URL, as in an ES module (the worker and the package root are
  // found from it).
  banner: { js: 'const somnusBundleUrl=require("node:url").pathToFileURL(__filename).href;' },
  define: {
    'import.meta.url': 'somnusBundleUrl',
    SOMNUS_COMMAND_SUMMARIES: JSON.stringify(await commandSummaries()),
  },
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'error' },
})

await build({
  entryPoints: { 'cpu-worker': 'src/service/cpu-worker.ts' },
  outdir: OUT_DIR,
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  logLevel: 'warning',
})

// The loader keys its code cache by the bundle's hash: a new build never meets an old cache.
await build({
  entryPoints: ['src/surfaces/cli/cli-loader.ts'],
  outfile: 'dist/cli.cjs',
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: {
    SOMNUS_CLI_BUILD: JSON.stringify(
      createHash('sha256').update(readFileSync(BUNDLE)).digest('hex').slice(0, 16),
    ),
  },
  logLevel: 'warning',
})
