// Builds the hook: dist/hook-bundle.cjs (hook-main.ts and everything it uses, tree-shaken) and
// its loader hook-loader.ts, as dist/hook.cjs (which bin/somnus.js requires) and dist/hook.js
// (ESM, for `node dist/hook.js <event>`), so `somnus hook <event>` starts fast.
// Measured on Node 20 (bench/hook-session-start.ts), each choice saves start-up time:
// - the bundle runs through a V8 code cache (see hook-loader.ts): later runs skip compiling it;
// - it is CommonJS, one file: code reached by import() stays in it but is only run when needed
//   (esbuild wraps it), so nothing is loaded that a hook event does not use, in one file read;
// - Node's built-in modules are taken with process.getBuiltinModule(), not import: an ESM import
//   of `node:fs` builds a facade of all its exports, which loads fs streams (~2-3 ms);
// - minified: less to read and parse on the first run;
// - zod is not in it: the hooks check their inputs by hand and ask zod only to judge and word
//   what that check cannot vouch for, so zod is required from node_modules on that slow path
//   alone (its 28 KB and module set-up cost every hook ~0.6 ms).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { build } from 'esbuild'

/** `dist`; another folder (an absolute path) lets a benchmark compare builds side by side. */
const OUT_DIR = process.env.SOMNUS_HOOK_OUT_DIR ?? 'dist'
const BUNDLE = join(OUT_DIR, 'hook-bundle.cjs')

/** `node:fs`, `fs`, `fs/promises`, ...: every name Node resolves to a built-in module. */
const BUILTIN = new RegExp(
  `^(node:)?(${builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|')})$`,
)

/** The names `src/` imports from each built-in module (`import { a, b } from 'node:fs'`). */
function importedBuiltinNames() {
  const names = new Map()
  const files = readdirSync('src', { recursive: true }).filter((file) => file.endsWith('.ts'))
  for (const file of files) {
    const text = readFileSync(join('src', file), 'utf8')
    for (const [, list, from] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(node:[^']+)'/g)) {
      const known = names.get(from) ?? new Set()
      for (const item of list.split(',')) {
        const name = item.trim().split(/\s+as\s+/)[0]
        if (name && !name.startsWith('type ')) known.add(name)
      }
      names.set(from, known)
    }
  }
  return names
}

/**
 * Stands in for each built-in module with `process.getBuiltinModule(name)`: no ESM import of a
 * built-in (see above), and no createRequire(), which sets up the CommonJS loader. Our imports
 * get a module exporting just the names they use (copying all of `fs` costs ~1.5 ms); the
 * dependencies' require() calls get the module itself.
 */
function builtinsByGetter() {
  const names = importedBuiltinNames()
  return {
    name: 'builtins-by-getter',
    setup(context) {
      context.onResolve({ filter: BUILTIN }, (args) => ({
        path: args.path.startsWith('node:') ? args.path : `node:${args.path}`,
        namespace: args.kind === 'import-statement' ? 'builtin-import' : 'builtin-require',
      }))
      context.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({
        contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)})`,
        loader: 'js',
      }))
      context.onLoad({ filter: /.*/, namespace: 'builtin-import' }, (args) => ({
        contents: [
          `const builtin = process.getBuiltinModule(${JSON.stringify(args.path)})`,
          'export default builtin',
          ...[...(names.get(args.path) ?? [])].map(
            (name) => `export const ${name} = builtin.${name}`,
          ),
        ].join('\n'),
        loader: 'js',
      }))
    },
  }
}

/** Packages the hooks need only on a slow path, loaded from node_modules when first called. */
const ON_DEMAND = ['zod', 'zod/mini']

/**
 * Stands in for each ON_DEMAND package with a module of its factory functions (lowercase exports),
 * each requiring the real package the first time it is called. The hook path's code builds its
 * schemas inside functions, so a hook that never needs one never loads the package; a hook that
 * does finds it where `somnus` is installed (it is a dependency). An ES module, so esbuild binds
 * `z.object` straight to its stand-in and drops the unused ones: no namespace object to copy.
 * A class or constant of the package is not stood in for: using one on the hook path fails the
 * build (import-is-undefined is an error below), rather than the slow path at run time.
 */
async function packagesOnDemand() {
  const factories = new Map()
  for (const name of ON_DEMAND) {
    const module = await import(name)
    factories.set(
      name,
      Object.keys(module).filter((key) => /^[a-z_]/.test(key) && typeof module[key] === 'function'),
    )
  }
  return {
    name: 'packages-on-demand',
    setup(context) {
      context.onResolve({ filter: new RegExp(`^(${ON_DEMAND.join('|')})$`) }, (args) =>
        args.namespace === 'on-demand'
          ? { path: args.path, external: true }
          : { path: args.path, namespace: 'on-demand' },
      )
      context.onLoad({ filter: /.*/, namespace: 'on-demand' }, (args) => ({
        contents: [
          'let loaded',
          `const load = () => (loaded ??= require(${JSON.stringify(args.path)}))`,
          ...factories
            .get(args.path)
            .map(
              (name, index) =>
                `const f${index} = (...args) => load().${name}(...args)\nexport { f${index} as ${name} }`,
            ),
        ].join('\n'),
        loader: 'js',
      }))
    },
  }
}

// Earlier builds split the hook into chunks here; they are no longer used.
rmSync(join(OUT_DIR, 'hook-chunks'), { recursive: true, force: true })

await build({
  entryPoints: ['src/surfaces/hooks/hook-main.ts'],
  outfile: BUNDLE,
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [builtinsByGetter(), await packagesOnDemand()],
  logLevel: 'warning',
  logOverride: { 'import-is-undefined': 'error' },
})

// The loader keys its code cache by the bundle's hash: a new build never meets an old cache.
const buildId = createHash('sha256').update(readFileSync(BUNDLE)).digest('hex').slice(0, 16)

const loader = {
  entryPoints: ['src/surfaces/hooks/hook-loader.ts'],
  bundle: true,
  minify: true,
  platform: 'node',
  target: 'node20',
  define: { SOMNUS_HOOK_BUILD: JSON.stringify(buildId) },
  logLevel: 'warning',
}
await build({ ...loader, outfile: join(OUT_DIR, 'hook.js'), format: 'esm' })
// The same loader as CommonJS, which bin/somnus.js (CommonJS) requires: Node starts a CommonJS
// entry without setting up its ES module loader, ~2-3 ms sooner.
await build({
  ...loader,
  outfile: join(OUT_DIR, 'hook.cjs'),
  format: 'cjs',
  // Unused there (it has __dirname); defined so that esbuild has nothing to warn about.
  define: { ...loader.define, 'import.meta.url': '""' },
})
