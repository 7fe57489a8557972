/**
 * The layout of docs/design/principles.md, checked on every import in src/: the dependency rule
 * inside each system, the system boundary (a system imports only the engine and declared bridges;
 * surfaces reach a system only through its entry), no import cycles, and the hook path kept light.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { build } from 'esbuild'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './support/shared-data.ts'

const SRC = join(REPO_ROOT, 'src')

/** The engine every system shares, and the systems built on it: the folders of src/. */
const ENGINE = 'engine'
const SYSTEMS = ['brain', 'patterns', 'service', 'mind']

/**
 * Inside the engine and each system: which layers each layer may import, of its own system and of
 * the engine. Files at a system's root (its composition and its entry) may import any layer.
 */
const LAYERS: Record<string, string[]> = {
  core: ['core'],
  ports: ['core', 'ports'],
  app: ['core', 'ports', 'app'],
  adapters: ['core', 'ports', 'adapters'],
}

/** The imports from one system into another that the design needs, file by file, and why. */
const BRIDGES: { from: string[]; to: string[]; why: string }[] = [
  {
    from: ['brain/compose-recall.ts'],
    to: [
      'patterns/compose-patterns.ts',
      'patterns/compose-pattern-hooks.ts',
      'patterns/adapters/fs/pattern-locations.ts',
    ],
    why: "the brain's recall also searches the skills and patterns the pattern system keeps",
  },
  {
    from: ['brain/create-somnus-hooks.ts'],
    to: ['patterns/compose-pattern-hooks.ts', 'patterns/core/pattern-settings.ts'],
    why: "the brain's hooks run the pattern jobs a session's end calls for",
  },
  {
    from: ['brain/create-somnus.ts'],
    to: ['service/index.ts'],
    why: "createSomnus's module hands the CLI and the library the service's entry",
  },
  {
    from: ['brain/core/push/brain-handoffs.ts', 'brain/core/push/digest-document-handoff.ts'],
    to: ['service/core/handoff.ts'],
    why: 'the brain pushes its digests to a service, in the shape the service accepts',
  },
  {
    from: ['service/service-cpu-tasks.ts'],
    to: ['mind/core/extractive-consolidation.ts'],
    why: "the service's CPU threads also run the consolidation of the minds `somnus serve` hosts",
  },
]

/** The files through which surfaces (and the package root) reach each system. */
const ENTRIES: Record<string, string[]> = {
  brain: [
    'brain/index.ts',
    'brain/brain-values.ts',
    'brain/brain-handoffs.ts',
    'brain/create-somnus.ts',
    'brain/create-somnus-hooks.ts',
    'brain/read-transcripts.ts',
    'brain/summarize.ts',
  ],
  patterns: ['patterns/index.ts', 'patterns/create-somnus-patterns.ts'],
  service: ['service/index.ts', 'service/service-values.ts'],
  mind: [
    'mind/index.ts',
    'mind/mind-values.ts',
    'mind/create-mind.ts',
    'mind/create-mind-recall.ts',
  ],
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** What importsOf returns for `import(x)` or `require(x)` whose module is not a string literal. */
const NON_LITERAL = '<non-literal specifier>'

/**
 * Every module a file names, parsed rather than matched so none slips by: imports and re-exports
 * (side-effect `import './x.ts'` and `import type` too), `import()`, `require()`,
 * `import x = require()` and `typeof import()`.
 */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const found: string[] = []
  const literal = (node: ts.Node | undefined) =>
    node !== undefined && ts.isStringLiteralLike(node) ? node.text : NON_LITERAL
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push(literal(node.moduleSpecifier))
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      found.push(literal(node.moduleReference.expression))
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      found.push(literal(node.arguments[0]))
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      found.push(literal(node.argument.literal))
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** A src-relative path's layer: core, ports, app or adapters, or `root` for a system's own files. */
function layerOf(path: string): string {
  const layer = path.split('/')[1] ?? ''
  return layer in LAYERS ? layer : 'root'
}

/** The relative imports of `files` (under `root`), as src-relative `[from, to]` pairs. */
function relativeImports(files: string[], root: string): [string, string][] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier): [string, string] => [
        relative(root, file),
        relative(root, resolve(dirname(file), specifier)),
      ]),
  )
}

/**
 * The imports of `files` (under `root`) that break the layout, as `from → to (rule)`: the layer
 * rule inside the engine and each system, the system boundary (a system imports its own files,
 * the engine's and its bridges; the engine only its own and its bridges: BRIDGES unless a test
 * plants its own), the surfaces' entry rule (a system only through ENTRIES, never its core/; the
 * engine but its adapters) and the package root's (index.ts files only).
 */
function layoutViolations(files: string[], root: string, bridges = BRIDGES): string[] {
  const offending: string[] = []
  for (const [from, to] of relativeImports(files, root)) {
    const fromTop = from.split('/')[0] ?? ''
    const toTop = to.split('/')[0] ?? ''
    const toLayer = layerOf(to)
    const flag = (rule: string) => offending.push(`${from} → ${to} (${rule})`)
    if (to.startsWith('..')) flag('outside src')
    else if (from === 'index.ts') {
      if (!SYSTEMS.concat(ENGINE).some((system) => to === `${system}/index.ts`))
        flag('package root')
    } else if (fromTop === 'surfaces') {
      if (toTop === 'surfaces') continue
      if (toTop === ENGINE) {
        if (toLayer === 'adapters') flag('surface to engine adapter')
      } else if (!(ENTRIES[toTop] ?? []).includes(to)) {
        flag('surface past entry')
      }
    } else if (fromTop === ENGINE || SYSTEMS.includes(fromTop)) {
      const bridged = bridges.some((bridge) => bridge.from.includes(from) && bridge.to.includes(to))
      if (toTop !== fromTop && toTop !== ENGINE && !bridged) flag('system boundary')
      const fromLayer = layerOf(from)
      if (fromLayer !== 'root' && !(LAYERS[fromLayer] ?? []).includes(toLayer)) flag('layer')
    } else flag('unknown folder')
  }
  return offending
}

describe('layout: layers inside each system, systems apart, surfaces through entries', () => {
  const files = sourceFiles(SRC)

  it('finds the source tree: the engine, every system and its entry, the surfaces', () => {
    expect(files.length).toBeGreaterThan(10)
    const tops = new Set(files.map((file) => relative(SRC, file).split('/')[0]))
    expect([...tops].sort()).toEqual([...SYSTEMS, ENGINE, 'index.ts', 'surfaces'].sort())
    for (const system of [...SYSTEMS, ENGINE])
      expect(files).toContain(join(SRC, system, 'index.ts'))
  })

  it('every import keeps the layer rule, the system boundary and the entry rule', () => {
    expect(layoutViolations(files, SRC)).toEqual([])
  })

  it('names only bridges and entries that exist, and bridges still used', () => {
    const pairs = relativeImports(files, SRC)
    const unused = [
      ...BRIDGES.flatMap(({ from, to }) =>
        from.flatMap((source) =>
          to
            .filter((target) => !pairs.some(([a, b]) => a === source && b === target))
            .map((target) => `bridge ${source} → ${target}`),
        ),
      ),
      ...Object.values(ENTRIES)
        .flat()
        .filter((entry) => !files.includes(join(SRC, entry)))
        .map((entry) => `entry ${entry}`),
    ]
    expect(unused).toEqual([])
  })

  it('fails on a planted violation of each rule, and passes a declared bridge', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-layout-'))
    const plant = (path: string, text: string) => {
      mkdirSync(dirname(join(folder, path)), { recursive: true })
      writeFileSync(join(folder, path), text)
    }
    try {
      plant('mind/core/fatigue.ts', 'export const f = 1\n')
      plant(
        'brain/core/ledger.ts',
        "import { f } from '../../mind/core/fatigue.ts'\nexport { f }\n",
      )
      plant('brain/adapters/fs-store.ts', 'export const s = 1\n')
      plant('brain/app/use-case.ts', "export { s } from '../adapters/fs-store.ts'\n")
      plant('brain/index.ts', "export * from './app/use-case.ts'\n")
      plant('engine/core/text.ts', "export type L = typeof import('../../brain/core/ledger.ts')\n")
      plant('service/core/handoff.ts', 'export const h = 1\n')
      plant('brain/app/push-handoffs.ts', "export { h } from '../../service/core/handoff.ts'\n")
      plant('surfaces/cli/good.ts', "export * from '../../brain/index.ts'\n")
      plant('surfaces/cli/bad.ts', "import('../../brain/app/use-case.ts')\n")
      plant('surfaces/hooks/bad-core.ts', "import { f } from '../../brain/core/ledger.ts'\n")
      const planted = [
        { from: ['brain/app/push-handoffs.ts'], to: ['service/core/handoff.ts'], why: 'planted' },
      ]
      expect(layoutViolations(sourceFiles(folder), folder, planted).sort()).toEqual([
        'brain/app/use-case.ts → brain/adapters/fs-store.ts (layer)',
        'brain/core/ledger.ts → mind/core/fatigue.ts (system boundary)',
        'engine/core/text.ts → brain/core/ledger.ts (system boundary)',
        'surfaces/cli/bad.ts → brain/app/use-case.ts (surface past entry)',
        'surfaces/hooks/bad-core.ts → brain/core/ledger.ts (surface past entry)',
      ])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

/**
 * The npm packages core may import today, file by file, and why: each is pure computation (no I/O)
 * and already loaded wherever that file is. Core should import nothing outside itself; this list
 * keeps these exceptions from spreading until they move out.
 */
const CORE_PACKAGES: Record<string, string[]> = {
  // Schemas of the ledger and somnus.json, parsed on the hook path: zod/mini is the small build.
  'brain/core/sleep-state.ts': ['zod/mini'],
  'engine/core/config.ts': ['zod/mini'],
  // Schemas the model's replies must match; model code never reaches the hook bundle.
  'engine/core/model-results.ts': ['zod'],
  // Tokens are counted with a real tokenizer (principle 4, docs/design/principles.md).
  'engine/core/tokens.ts': ['gpt-tokenizer/encoding/o200k_base'],
  // The extractive summarizer matches words by their stems.
  'engine/core/extractive/text.ts': ['stemmer'],
  // The service's shapes (handoffs, decisions, jobs, tenants, settings), parsed at the HTTP and
  // CLI edges; service code never reaches the hook bundle.
  'service/core/handoff.ts': ['zod'],
  'service/core/decision.ts': ['zod'],
  'service/core/consolidation-job.ts': ['zod'],
  'service/core/tenant.ts': ['zod'],
  'service/core/service-config.ts': ['zod'],
  'service/core/locomo-handoffs.ts': ['zod'],
  'service/core/handoff-search.ts': ['zod'],
}

describe('core imports nothing outside itself', () => {
  const coreFiles = sourceFiles(SRC)
    .filter((file) => layerOf(relative(SRC, file)) === 'core')
    .map((file) => ({
      name: relative(SRC, file),
      specifiers: importsOf(file),
    }))

  it('core/ imports no Node built-in (core does no I/O)', () => {
    const offending = coreFiles.flatMap(({ name, specifiers }) =>
      specifiers.filter((specifier) => isBuiltin(specifier)).map((found) => `${name} → ${found}`),
    )
    expect(offending).toEqual([])
  })

  it('core/ imports no npm package but the ones CORE_PACKAGES allows for that file', () => {
    const offending = coreFiles.flatMap(({ name, specifiers }) =>
      specifiers
        .filter((specifier) => !specifier.startsWith('.') && !isBuiltin(specifier))
        .filter((specifier) => !(CORE_PACKAGES[name] ?? []).includes(specifier))
        .map((found) => `${name} → ${found}`),
    )
    expect(offending).toEqual([])
  })
})

describe('import forms', () => {
  it('every import(), require() and import = require() in src/ names its module literally', () => {
    // A computed specifier would pass every rule above unseen.
    const offending = sourceFiles(SRC).filter((file) => importsOf(file).includes(NON_LITERAL))
    expect(offending.map((file) => relative(SRC, file))).toEqual([])
  })
})

/**
 * The import cycles among `files`, each as its files (relative to `root`), found as the strongly
 * connected components of the graph of every relative import: static, `import type` and `import()`
 * alike, as madge counts them (a type-only or lazy cycle still ties the files' design together).
 */
function importCycles(files: string[], root: string): string[][] {
  const known = new Set(files)
  const edges = new Map(
    files.map((file) => [
      file,
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolve(dirname(file), specifier))
        .filter((target) => known.has(target)),
    ]),
  )
  // Tarjan's algorithm: every component of more than one file, or a file importing itself.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file) ?? 0)
    stack.push(file)
    onStack.add(file)
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      component.push(relative(root, member))
    } while (member !== file)
    if (component.length > 1 || edges.get(file)?.includes(file)) cycles.push(component.sort())
  }
  for (const file of files) if (!index.has(file)) visit(file)
  return cycles
}

describe('import cycles', () => {
  it('src/ has none', () => {
    expect(importCycles(sourceFiles(SRC), SRC)).toEqual([])
  })

  it('finds a planted one, through a type-only and a lazy import too', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-cycle-'))
    try {
      writeFileSync(join(folder, 'a.ts'), "import { b } from './b.ts'\nexport const a = b\n")
      writeFileSync(join(folder, 'b.ts'), "import type { C } from './c.ts'\nexport const b = 1\n")
      writeFileSync(join(folder, 'c.ts'), "export type C = typeof import('./a.ts')\n")
      writeFileSync(join(folder, 'd.ts'), "import { a } from './a.ts'\nexport const d = a\n")
      expect(importCycles(sourceFiles(folder), folder)).toEqual([['a.ts', 'b.ts', 'c.ts']])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

describe('hook path', () => {
  it('bundles no commander, full zod, tokenizer, SQL, HTTP, MCP, LLM or word-vector code', async () => {
    const result = await build({
      entryPoints: [join(SRC, 'surfaces/hooks/hook-main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    const inputs = Object.keys(result.metafile.inputs)
    const forbidden = inputs.filter((path) =>
      /node_modules\/(commander|gpt-tokenizer|pg|kysely|hono|@hono|@modelcontextprotocol|@electric-sql)\/|node_modules\/zod\/v4\/classic\/|src\/engine\/adapters\/llm\/|src\/(service|mind)\/|src\/surfaces\/(http|mcp|cli)\/|word-vectors/.test(
        path,
      ),
    )
    expect(inputs.some((path) => path.includes('src/surfaces/hooks/'))).toBe(true)
    expect(forbidden).toEqual([])
    // The bundle's boundary is the systems': the brain, the patterns its hooks run, the engine.
    const systems = new Set(
      inputs.filter((path) => path.startsWith('src/')).map((path) => path.split('/')[1]),
    )
    expect([...systems].sort()).toEqual(['brain', 'engine', 'patterns', 'surfaces'])
  })
})

/** A build split at every import(), as scripts/bundle-cli.mjs builds the CLI, kept in memory. */
function splitBuild(entry: string) {
  return build({
    entryPoints: [join(SRC, entry)],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    outdir: join(REPO_ROOT, 'dist/architecture-check'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
}

describe('CLI bundle', () => {
  it('transcript stats loads no settings or zod until a session id needs the ledger', async () => {
    const result = await splitBuild('surfaces/cli/commands/transcript.ts')
    const outputs = result.metafile.outputs
    // Chunks reached by import() have an entryPoint too: pick the command's own.
    const entry = Object.keys(outputs).find(
      (path) => outputs[path]?.entryPoint === 'src/surfaces/cli/commands/transcript.ts',
    )
    // What loads with the command: its chunk and every chunk it imports statically, not import().
    const loaded = new Set<string>()
    const visit = (path: string) => {
      if (loaded.has(path)) return
      loaded.add(path)
      for (const item of outputs[path]?.imports ?? []) {
        if (item.kind === 'import-statement' && !item.external) visit(item.path)
      }
    }
    visit(entry as string)
    const inputs = [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}))
    expect(inputs.some((path) => path.includes('src/brain/app/transcript-stats.ts'))).toBe(true)
    expect(
      inputs.filter((path) =>
        /node_modules\/zod\/|src\/engine\/core\/config\.ts|src\/brain\/compose\.ts/.test(path),
      ),
    ).toEqual([])
  })

  it('bundles zod tree-shaken: no locale but English anywhere in the CLI', async () => {
    const result = await splitBuild('surfaces/cli/main.ts')
    // Inputs that left code in some chunk (metafile.inputs lists the tree-shaken ones too).
    const inputs = Object.values(result.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    )
    expect(inputs.some((path) => path.includes('node_modules/zod/'))).toBe(true)
    // `import { z } from 'zod'` keeps every export of the namespace, all 40-odd locales included.
    expect(inputs.filter((path) => /zod\/v4\/locales\/(?!en\.js)/.test(path))).toEqual([])
  })
})
