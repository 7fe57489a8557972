/** The dependency rule of DESIGN.md, checked on every import in src/, and the hook path kept light. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './support/shared-data.ts'

const SRC = join(REPO_ROOT, 'src')

/** Which top-level folders each layer may import from (besides itself). */
const ALLOWED: Record<string, string[]> = {
  core: [],
  ports: ['core'],
  app: ['core', 'ports'],
  adapters: ['core', 'ports'],
  surfaces: ['core', 'ports', 'app', 'compose.ts', 'compose-model.ts', 'compose-transcripts.ts'],
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const pattern =
    /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? '')
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
          if (!specifier.startsWith('.')) {
            if (layer === 'core' && specifier.startsWith('node:')) {
              offending.push(`${relative(SRC, file)} → ${specifier} (core does no I/O)`)
            }
            continue
          }
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

describe('hook path', () => {
  it('bundles no commander, full zod, tokenizer, SQL, HTTP, MCP or LLM code', async () => {
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
      /node_modules\/(commander|gpt-tokenizer|pg|kysely|hono|@hono|@modelcontextprotocol|@electric-sql)\/|node_modules\/zod\/v4\/classic\/|src\/adapters\/(llm|sql)\/|src\/surfaces\/(http|mcp|cli)\//.test(
        path,
      ),
    )
    expect(inputs.some((path) => path.includes('src/surfaces/hooks/'))).toBe(true)
    expect(forbidden).toEqual([])
  })
})
