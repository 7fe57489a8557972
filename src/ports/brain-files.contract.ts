/** The behaviour every `BrainFiles` adapter must show; each adapter's test runs this suite. */
import { describe, expect, it } from 'vitest'
import type { BrainFiles } from './brain-files.ts'

/** Registers the contract tests for adapters made by `make` (a fresh, empty store each call). */
export function testBrainFiles(name: string, make: () => Promise<BrainFiles>): void {
  describe(`BrainFiles contract: ${name}`, () => {
    it('reads back what was written, and null for a missing file', async () => {
      const files = await make()
      expect(await files.read('core/0.soul.md')).toBeNull()
      await files.write('core/0.soul.md', '# Soul\n')
      expect(await files.read('core/0.soul.md')).toBe('# Soul\n')
      await files.write('core/0.soul.md', '# Soul v2\n')
      expect(await files.read('core/0.soul.md')).toBe('# Soul v2\n')
    })

    it('lists the files directly inside a folder, sorted, and nothing for a missing folder', async () => {
      const files = await make()
      expect(await files.list('knowledge')).toEqual([])
      await files.write('knowledge/b.md', 'b')
      await files.write('knowledge/a.md', 'a')
      await files.write('knowledge/deep/c.md', 'c')
      expect(await files.list('knowledge')).toEqual(['a.md', 'b.md'])
    })

    it('removes a file, and removing a missing file is not an error', async () => {
      const files = await make()
      await files.write('state/task.md', 'x')
      await files.remove('state/task.md')
      await files.remove('state/task.md')
      expect(await files.read('state/task.md')).toBeNull()
      expect(await files.list('state')).toEqual([])
    })

    it('refuses paths that leave the root by their text, with OUTSIDE_BRAIN, for every operation', async () => {
      const files = await make()
      const escaping = [
        '../outside.md',
        'core/../../outside.md',
        '/etc/passwd',
        'C:/x.md',
        'a\0b.md',
      ]
      for (const path of escaping) {
        await expect(files.write(path, 'x'), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
        await expect(files.read(path), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
        await expect(files.remove(path), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
      }
      await expect(files.list('..')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
      await expect(files.write('../x.md', 'x')).rejects.toThrow(/"\.\."/)
      expect(await files.list('')).toEqual([])
    })
  })
}
