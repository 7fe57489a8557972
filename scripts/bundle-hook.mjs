// Bundles the hook entry into dist/hook.js: one file, tree-shaken, so `somnus hook stop` starts fast.
import { build } from 'esbuild'

await build({
  entryPoints: ['src/surfaces/hooks/hook-main.ts'],
  outfile: 'dist/hook.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies (proper-lockfile, write-file-atomic) need require() and __filename,
  // which an ES module does not define.
  banner: {
    js: [
      "import { createRequire as somnusCreateRequire } from 'node:module'",
      "import { fileURLToPath as somnusFileURLToPath } from 'node:url'",
      'const require = somnusCreateRequire(import.meta.url)',
      'const __filename = somnusFileURLToPath(import.meta.url)',
      "const __dirname = somnusFileURLToPath(new URL('.', import.meta.url))",
    ].join(';'),
  },
  logLevel: 'warning',
})
