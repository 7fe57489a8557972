// Bundles the hook entry into dist/hook.js: one file, tree-shaken, so `somnus hook stop` starts fast.
import { build } from 'esbuild'

await build({
  entryPoints: ['src/surfaces/hooks/hook-main.ts'],
  outfile: 'dist/hook.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies (proper-lockfile, write-file-atomic) need require() inside an ES module.
  banner: { js: "import { createRequire as somnusCreateRequire } from 'node:module'; const require = somnusCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})
