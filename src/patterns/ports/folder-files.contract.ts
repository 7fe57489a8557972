/** The behaviour every `FolderFiles` adapter must show; each adapter's test runs this suite. */
import { expect, it } from 'vitest'
import {
  type ContractOptions,
  describeContract,
} from '../../engine/ports/describe-contract.contract.ts'
import type { FolderFiles } from './folder-files.ts'

/** What the suite is given: a fresh, empty folder, and for disk adapters a way to plant links. */
export interface FolderFilesFixture {
  files: FolderFiles
  /** Makes `path` a symlink to a folder outside; returns a check that the outside is unchanged. */
  linkOut?: (path: string) => Promise<() => void>
}

/** Registers the contract tests for adapters made by `make`. */
export function testFolderFiles(options: ContractOptions<FolderFilesFixture>): void {
  const { make } = options
  describeContract('FolderFiles', options, () => {
    it('reads back what was written, null for a missing file, and lists by suffix', async () => {
      const { files } = await make()
      expect(await files.read('git.md')).toBeNull()
      expect(await files.list('', '.md')).toEqual([])
      await files.write('git.md', 'one\n')
      await files.write('elixir.md', 'two\n')
      await files.write('notes.txt', 'three\n')
      await files.write('sub/deeper.md', 'four\n')
      expect(await files.read('git.md')).toBe('one\n')
      expect(await files.list('', '.md')).toEqual(['elixir.md', 'git.md'])
      expect(await files.list('sub', '.md')).toEqual(['deeper.md'])
      expect(await files.list('missing', '.md')).toEqual([])
    })

    it('refuses `..`, absolute paths and NUL bytes with OUTSIDE_BRAIN', async () => {
      const { files } = await make()
      for (const path of ['../x.md', 'a/../../x.md', '/etc/x.md', 'a\0b']) {
        await expect(files.write(path, 'x'), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
        await expect(files.read(path), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
        await expect(files.list(path, '.md'), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
      }
    })

    it('refuses a symlink out of the folder with OUTSIDE_BRAIN and leaves its target alone', async (context) => {
      const { files, linkOut } = await make()
      if (!linkOut) return context.skip('this adapter has no symlinks')
      const unchanged = await linkOut('linked')
      await expect(files.write('linked/git.md', 'x')).rejects.toMatchObject({
        code: 'OUTSIDE_BRAIN',
      })
      await expect(files.read('linked/victim.md')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
      await expect(files.list('linked', '.md')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
      unchanged()
    })
  })
}
