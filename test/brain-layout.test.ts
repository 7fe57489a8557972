import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type BrainDocument, documentAt, documentPath } from '../src/engine/core/brain-layout.ts'

const TEMPLATES = join(import.meta.dirname, '../templates/init')

function templatePaths(folder = TEMPLATES): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return templatePaths(path)
    // `init` ships the brain's ignore file as `gitignore` (npm drops dot files named .gitignore).
    return [relative(TEMPLATES, path).replace(/^gitignore$/, '.gitignore')]
  })
}

describe('brain layout', () => {
  it('names every shipped template as a document that lies where the template does', () => {
    const paths = templatePaths()
    expect(paths.length).toBeGreaterThan(8)
    for (const path of paths) {
      const document = documentAt(path)
      expect(document, path).not.toBeNull()
      expect(documentPath(document as BrainDocument)).toBe(path)
    }
  })

  it('lays out each kind as the seeds do, and finds no document where the layout has none', () => {
    expect(documentPath({ kind: 'task', slug: 'auth' })).toBe('state/auth.md')
    expect(documentPath({ kind: 'feature', slug: 'login' })).toBe('core/features/login.md')
    expect(documentPath({ kind: 'archive', of: 'memory' })).toBe('knowledge/2.memory-archive.md')
    expect(documentPath({ kind: 'ledger' })).toBe('state/.sleep.json')
    expect(documentPath({ kind: 'digest', slug: '2026-02-11-258c7280' })).toBe(
      'knowledge/sessions/2026-02-11-258c7280.md',
    )
    expect(documentAt('knowledge/sessions/2026-02-11-258c7280.md')).toEqual({
      kind: 'digest',
      slug: '2026-02-11-258c7280',
    })
    for (const path of [
      'state/.sleep-run.json',
      'notes/a.md',
      '../a.md',
      'state/a.txt',
      'core/x.md',
    ]) {
      expect(documentAt(path), path).toBeNull()
    }
  })
})
