import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testBrainFiles } from '../../../engine/ports/brain-files.contract.ts'
import { createFsBrainFiles } from './fs-brain-files.ts'
import { createFsBrainPaths } from './fs-brain-paths.ts'

testBrainFiles({
  name: 'fs',
  make: async () => createFsBrainFiles(await mkdtemp(join(tmpdir(), 'somnus-files-'))),
})

/** A brain folder and, beside it, a folder it must never reach, with one executable file. */
async function brainWithOutside() {
  const base = await mkdtemp(join(tmpdir(), 'somnus-confine-'))
  const root = join(base, '_agent_context')
  const outside = join(base, 'outside')
  mkdirSync(join(root, 'core'), { recursive: true })
  mkdirSync(outside)
  const victim = join(outside, 'bashrc')
  writeFileSync(victim, 'original\n')
  chmodSync(victim, 0o755)
  const unchanged = () => {
    expect(readFileSync(victim, 'utf8')).toBe('original\n')
    expect(statSync(victim).mode & 0o7777).toBe(0o755)
  }
  return { root, outside, victim, unchanged, files: createFsBrainPaths(root) }
}

describe('fs brain paths confinement (under every BrainFiles document)', () => {
  it('refuses a file symlinked out of the brain: nothing written, read or removed there', async () => {
    const { root, victim, unchanged, files } = await brainWithOutside()
    symlinkSync(victim, join(root, 'core/2.memory.md'))
    await expect(files.write('core/2.memory.md', 'attacker\n')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
      message: expect.stringContaining(victim),
    })
    await expect(files.read('core/2.memory.md')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    unchanged()
  })

  it('refuses a folder symlinked out of the brain, before making anything below it', async () => {
    const { root, outside, victim, unchanged, files } = await brainWithOutside()
    symlinkSync(outside, join(root, 'knowledge'))
    await expect(files.write('knowledge/bashrc', 'x')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    await expect(files.write('knowledge/new/deep.md', 'x')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    await expect(files.read('knowledge/bashrc')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    await expect(files.list('knowledge')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    await expect(files.remove('knowledge/bashrc')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    unchanged()
    expect(await readdir(outside)).toEqual(['bashrc'])
    expect(victim).toBeTruthy()
  })

  it('refuses a dangling symlink, whose target cannot be checked, and `..` on disk', async () => {
    const { root, outside, files } = await brainWithOutside()
    symlinkSync(join(outside, 'planted'), join(root, 'core/0.soul.md'))
    await expect(files.write('core/0.soul.md', 'x')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    await expect(files.write('../outside/new.md', 'x')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    expect(await readdir(outside)).toEqual(['bashrc'])
  })

  it('reads through a symlink that stays inside, but never writes through one', async () => {
    const { root, files } = await brainWithOutside()
    await files.write('knowledge/real.md', 'one\n')
    symlinkSync(join(root, 'knowledge/real.md'), join(root, 'core/alias.md'))
    expect(await files.read('core/alias.md')).toBe('one\n')
    await expect(files.write('core/alias.md', 'two\n')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    expect(readFileSync(join(root, 'knowledge/real.md'), 'utf8')).toBe('one\n')
    // A symlinked folder inside the brain is refused for writes too.
    symlinkSync(join(root, 'knowledge'), join(root, 'aliased'))
    await expect(files.write('aliased/new.md', 'x')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    expect(existsSync(join(root, 'knowledge/new.md'))).toBe(false)
    await files.remove('core/alias.md')
    expect(await files.read('knowledge/real.md')).toBe('one\n')
  })
})

describe('fs BrainFiles layout', () => {
  it('keeps each document at its seed path, and refuses one symlinked out of the brain', async () => {
    const { root, victim, unchanged } = await brainWithOutside()
    const files = createFsBrainFiles(root)
    await files.write({ kind: 'task', slug: 'auth' }, 'task\n')
    await files.write({ kind: 'archive', of: 'user' }, 'archive\n')
    await files.write({ kind: 'core', name: 'changelog' }, '[]\n')
    expect(readFileSync(join(root, 'state/auth.md'), 'utf8')).toBe('task\n')
    expect(readFileSync(join(root, 'knowledge/1.user-archive.md'), 'utf8')).toBe('archive\n')
    expect(readFileSync(join(root, 'core/CHANGELOG.json'), 'utf8')).toBe('[]\n')
    symlinkSync(victim, join(root, 'core/2.memory.md'))
    await expect(files.write({ kind: 'core', name: 'memory' }, 'x')).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
    })
    unchanged()
  })
})
