import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { testFolderFiles } from '../../ports/folder-files.contract.ts'
import { createFsFolderFiles } from './fs-folder-files.ts'

testFolderFiles({
  name: 'fs',
  make: async () => {
    const base = await mkdtemp(join(tmpdir(), 'somnus-folder-'))
    const folder = join(base, 'patterns')
    mkdirSync(folder)
    return {
      files: createFsFolderFiles(folder),
      linkOut: async (path) => {
        const outside = join(base, 'outside')
        mkdirSync(outside)
        writeFileSync(join(outside, 'victim.md'), 'theirs\n')
        symlinkSync(outside, join(folder, path))
        return () => expect(readdirSync(outside)).toEqual(['victim.md'])
      },
    }
  },
})
