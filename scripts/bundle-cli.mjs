// Builds the CLI: dist/cli/main.js (src/surfaces/cli/main.ts and everything it uses), which
// bin/somnus.js imports. Loading ~150 separate modules from dist/ cost every command ~150 ms of
// start-up; one bundle split by command costs ~95 ms, and a command's code (its dependencies
// included: the tokenizer's tables, the model adapters) still loads only when that command runs.
// The library API (`dist/index.js`) and the hook (`scripts/bundle-hook.mjs`) are built apart.
import { rmSync } from 'node:fs'
import { build } from 'esbuild'
// tsc has built dist/ by now (npm run build): every command module's help summary, so that the
// bundle's `somnus --help` lists the nouns without loading them (see run-cli.ts).
import { commandSummaries } from '../dist/surfaces/cli/run-cli.js'

const OUT_DIR = 'dist/cli'

rmSync(OUT_DIR, { recursive: true, force: true })
await build({
  // The extractive model's worker threads load their own entry, beside the chunk that starts them.
  entryPoints: {
    main: 'src/surfaces/cli/main.ts',
    'extractive-worker': 'src/adapters/llm/extractive-worker.ts',
  },
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  minify: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // PGlite finds its WebAssembly and data files beside its own module: it loads from node_modules.
  external: ['@electric-sql/pglite'],
  // Bundled CommonJS dependencies (write-file-atomic) use require and __filename; ES modules
  // have neither, so every file of the bundle gets its own.
  banner: {
    js: [
      "import { createRequire as somnusCreateRequire } from 'node:module';",
      "import { dirname as somnusDirname } from 'node:path';",
      "import { fileURLToPath as somnusFileUrlToPath } from 'node:url';",
      'const require = somnusCreateRequire(import.meta.url);',
      'const __filename = somnusFileUrlToPath(import.meta.url);',
      'const __dirname = somnusDirname(__filename);',
    ].join(' '),
  },
  define: { SOMNUS_COMMAND_SUMMARIES: JSON.stringify(await commandSummaries()) },
  logLevel: 'warning',
})
