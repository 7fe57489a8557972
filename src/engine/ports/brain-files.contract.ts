/** The behaviour every `BrainFiles` adapter must show; each adapter's test runs this suite. */
import { expect, it } from 'vitest'
import type { BrainDocument, BrainFiles } from './brain-files.ts'
import { type ContractOptions, describeContract } from './describe-contract.contract.ts'

/** Registers the contract tests for adapters made by `make` (a fresh, empty store each call). */
export function testBrainFiles(options: ContractOptions<BrainFiles>): void {
  const { make } = options
  describeContract('BrainFiles', options, () => {
    it('reads back what was written, and null for a missing document', async () => {
      const files = await make()
      const soul: BrainDocument = { kind: 'core', name: 'soul' }
      expect(await files.read(soul)).toBeNull()
      await files.write(soul, '# Soul\n')
      expect(await files.read(soul)).toBe('# Soul\n')
      await files.write(soul, '# Soul v2\n')
      expect(await files.read(soul)).toBe('# Soul v2\n')
      expect(await files.read({ kind: 'core', name: 'user' })).toBeNull()
    })

    it('keeps each kind apart: the same slug as a task and a note are two documents', async () => {
      const files = await make()
      await files.write({ kind: 'task', slug: 'auth' }, 'task')
      await files.write({ kind: 'knowledge', slug: 'auth' }, 'note')
      await files.write({ kind: 'feature', slug: 'auth' }, 'feature')
      expect(await files.read({ kind: 'task', slug: 'auth' })).toBe('task')
      expect(await files.read({ kind: 'knowledge', slug: 'auth' })).toBe('note')
      expect(await files.read({ kind: 'feature', slug: 'auth' })).toBe('feature')
    })

    it('lists the documents of a kind, sorted, and nothing of a kind with none', async () => {
      const files = await make()
      expect(await files.list('knowledge')).toEqual([])
      await files.write({ kind: 'knowledge', slug: 'b' }, 'b')
      await files.write({ kind: 'knowledge', slug: 'a' }, 'a')
      await files.write({ kind: 'archive', of: 'memory' }, 'archived')
      await files.write({ kind: 'folder-keeper', folder: 'knowledge' }, '')
      await files.write({ kind: 'ledger' }, '{}')
      expect(await files.list('knowledge')).toEqual([
        { kind: 'knowledge', slug: '2.memory-archive' },
        { kind: 'knowledge', slug: 'a' },
        { kind: 'knowledge', slug: 'b' },
      ])
      // The ledger and the folder keeper share the tasks' folder on disk but are not tasks.
      expect(await files.list('task')).toEqual([])
      await files.write({ kind: 'core', name: 'memory' }, 'm')
      await files.write({ kind: 'extended-core', file: '5.data_structures.sql' }, '-- sql')
      await files.write({ kind: 'extended-core', file: '3.style.md' }, 'style')
      await files.write({ kind: 'feature', slug: 'login' }, 'f')
      expect(await files.list('extended-core')).toEqual([
        { kind: 'extended-core', file: '3.style.md' },
        { kind: 'extended-core', file: '5.data_structures.sql' },
      ])
      expect(await files.list('feature')).toEqual([{ kind: 'feature', slug: 'login' }])
    })

    it('keeps session digests apart from the knowledge notes they sit beside', async () => {
      const files = await make()
      const digest: BrainDocument = { kind: 'digest', slug: '2026-02-11-258c7280' }
      await files.write(digest, '# digest')
      await files.write({ kind: 'knowledge', slug: '2026-02-11-258c7280' }, 'note')
      expect(await files.read(digest)).toBe('# digest')
      expect(await files.list('digest')).toEqual([digest])
      expect(await files.list('knowledge')).toEqual([
        { kind: 'knowledge', slug: '2026-02-11-258c7280' },
      ])
    })

    it('removes a document, and removing a missing one is not an error', async () => {
      const files = await make()
      const task: BrainDocument = { kind: 'task', slug: 'task' }
      await files.write(task, 'x')
      await files.remove(task)
      await files.remove(task)
      expect(await files.read(task)).toBeNull()
      expect(await files.list('task')).toEqual([])
    })

    it('refuses names that would leave their folder, with OUTSIDE_BRAIN, for every operation', async () => {
      const files = await make()
      const escaping: BrainDocument[] = [
        { kind: 'knowledge', slug: '../outside' },
        { kind: 'task', slug: '../../outside' },
        { kind: 'feature', slug: '..' },
        { kind: 'knowledge', slug: '/etc/passwd' },
        { kind: 'task', slug: 'a\\b' },
        { kind: 'knowledge', slug: 'a\0b' },
        { kind: 'extended-core', file: '../../x.md' },
        { kind: 'knowledge', slug: '' },
      ]
      for (const document of escaping) {
        const label = JSON.stringify(document)
        await expect(files.write(document, 'x'), label).rejects.toMatchObject({
          code: 'OUTSIDE_BRAIN',
        })
        await expect(files.read(document), label).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
        await expect(files.remove(document), label).rejects.toMatchObject({
          code: 'OUTSIDE_BRAIN',
        })
      }
      await expect(files.write({ kind: 'task', slug: '../x' }, 'x')).rejects.toThrow(/"\.\."/)
    })
  })
}
