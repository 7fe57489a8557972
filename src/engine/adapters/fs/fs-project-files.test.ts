import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { testProjectFiles } from '../../ports/project-files.contract.ts'
import { createFsProjectFiles } from './fs-project-files.ts'

testProjectFiles({
  name: 'fs',
  make: async () => {
    const base = await mkdtemp(join(tmpdir(), 'somnus-project-'))
    const project = join(base, 'project')
    mkdirSync(project)
    return {
      files: createFsProjectFiles(project),
      linkOut: async (path) => {
        const outside = join(base, 'outside')
        mkdirSync(outside)
        const victim = join(outside, 'settings.json')
        writeFileSync(victim, 'theirs\n')
        chmodSync(victim, 0o750)
        symlinkSync(outside, join(project, path))
        return () => {
          expect(readFileSync(victim, 'utf8')).toBe('theirs\n')
          expect(statSync(victim).mode & 0o7777).toBe(0o750)
        }
      },
    }
  },
})
