/**
 * The dependency rule of docs/design/principles.md, checked on every import in src/, no import
 * cycles, and the hook path kept light.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { build } from 'esbuild'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './support/shared-data.ts'

const SRC = join(REPO_ROOT, 'src')

/** Which top-level folders each layer may import from (besides itself). */
const ALLOWED: Record<string, string[]> = {
  core: [],
  ports: ['core'],
  app: ['core', 'ports'],
  adapters: ['core', 'ports'],
  surfaces: [
    'core',
    'ports',
    'app',
    'create-somnus.ts',
    'create-somnus-hooks.ts',
    'create-somnus-patterns.ts',
    'create-mind.ts',
    'create-mind-recall.ts',
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

describe('dependency rule', () => {
  const files = sourceFiles(SRC)

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10)
  })

  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    it(`${layer}/ imports only from ${[layer, ...allowed].join(', ')}`, () => {
      const offending: string[] = []
      for (const file of files.filter((path) => relative(SRC, path).startsWith(`${layer}/`))) {
        for (const specifier of importsOf(file)) {
          if (!specifier.startsWith('.')) continue
          const target = relative(SRC, join(file, '..', specifier))
          const top = target.split('/')[0] ?? ''
          if (top !== layer && !allowed.includes(top))
            offending.push(`${relative(SRC, file)} → ${target}`)
        }
      }
      expect(offending).toEqual([])
    })
  }
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
  const coreFiles = sourceFiles(join(SRC, 'core')).map((file) => ({
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

/** Which of `src/`'s files a surface may reach outside the layers: the createSomnus module only. */
const FRONT_DOOR = [
  'create-somnus.ts',
  'create-somnus-hooks.ts',
  'create-somnus-patterns.ts',
  'create-mind.ts',
  'create-mind-recall.ts',
]

/** The imports of `files` that break the front-door rule, as `file → target`. */
function frontDoorViolations(files: string[]): string[] {
  const offending: string[] = []
  for (const path of files) {
    for (const specifier of importsOf(path)) {
      if (!specifier.startsWith('.')) continue
      const target = relative(SRC, join(path, '..', specifier))
      const top = target.split('/')[0] ?? ''
      const sourceFile = top.endsWith('.ts') || top.endsWith('.js')
      if (top === 'adapters' || (sourceFile && !FRONT_DOOR.includes(top))) {
        offending.push(`${relative(SRC, path)} → ${target}`)
      }
    }
  }
  return offending
}

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

describe('front door', () => {
  it('surfaces reach adapters and compose*.ts only through createSomnus', () => {
    const surfaces = sourceFiles(join(SRC, 'surfaces'))
    expect(surfaces.length).toBeGreaterThan(10)
    expect(frontDoorViolations(surfaces)).toEqual([])
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
      /node_modules\/(commander|gpt-tokenizer|pg|kysely|hono|@hono|@modelcontextprotocol|@electric-sql)\/|node_modules\/zod\/v4\/classic\/|src\/adapters\/(llm|sql)\/|src\/surfaces\/(http|mcp|cli)\/|word-vectors/.test(
        path,
      ),
    )
    expect(inputs.some((path) => path.includes('src/surfaces/hooks/'))).toBe(true)
    expect(forbidden).toEqual([])
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
        /node_modules\/zod\/|src\/core\/config\.ts|src\/compose\.ts/.test(path),
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
