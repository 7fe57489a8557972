/** The behaviour every `ProjectFiles` adapter must show; each adapter's test runs this suite. */
import { expect, it } from 'vitest'
import { type ContractOptions, describeContract } from './describe-contract.contract.ts'
import type { ProjectFiles } from './project-files.ts'

/** What the suite is given: a fresh, empty project, and for disk adapters a way to plant links. */
export interface ProjectFilesFixture {
  files: ProjectFiles
  /**
   * Makes `path` a symlink to a file outside the project; returns a check that the outside file
   * is unchanged. Absent for adapters without symlinks.
   */
  linkOut?: (path: string) => Promise<() => void>
}

/** Registers the contract tests for adapters made by `make`. */
export function testProjectFiles(options: ContractOptions<ProjectFilesFixture>): void {
  const { make } = options
  describeContract('ProjectFiles', options, () => {
    it('reads back what was written, and null for a missing file', async () => {
      const { files } = await make()
      expect(await files.read('.claude/settings.json')).toBeNull()
      await files.write('.claude/settings.json', '{}\n')
      expect(await files.read('.claude/settings.json')).toBe('{}\n')
    })

    it('makes the folders of a deeper path (the agent and skill files `init` installs)', async () => {
      const { files } = await make()
      await files.write('.claude/skills/somnus/SKILL.md', '# Skill\n')
      await files.write('.claude/agents/somnus-rem-sleep.md', '# Agent\n')
      expect(await files.read('.claude/skills/somnus/SKILL.md')).toBe('# Skill\n')
      expect(await files.read('.claude/agents/somnus-rem-sleep.md')).toBe('# Agent\n')
      expect(await files.read('.claude/skills/other/SKILL.md')).toBeNull()
    })

    it('lists the folders of a folder, sorted, and none for a missing one', async () => {
      const { files } = await make()
      expect(await files.folders('.claude/skills')).toEqual([])
      await files.write('.claude/skills/zeta/SKILL.md', '# Z\n')
      await files.write('.claude/skills/alpha/SKILL.md', '# A\n')
      await files.write('.claude/skills/README.md', 'not a folder\n')
      expect(await files.folders('.claude/skills')).toEqual(['alpha', 'zeta'])
      await expect(files.folders('../x')).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    })

    it('refuses `..`, absolute paths and NUL bytes with OUTSIDE_BRAIN', async () => {
      const { files } = await make()
      for (const path of ['../settings.json', '.claude/../../x.json', '/etc/x.json', 'a\0b']) {
        await expect(files.write(path, 'x'), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
        await expect(files.read(path), path).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
      }
    })

    it('reports a file where a folder on the way belongs as ENVIRONMENT, on read', async () => {
      const { files } = await make()
      await files.write('.claude', 'not a folder\n')
      await expect(files.read('.claude/settings.json')).rejects.toMatchObject({
        code: 'ENVIRONMENT',
        message: expect.stringMatching(/\.claude.*file.*folder/),
      })
    })

    it('refuses a symlink out of the project with OUTSIDE_BRAIN and leaves its target alone', async (context) => {
      const { files, linkOut } = await make()
      if (!linkOut) return context.skip('this adapter has no symlinks')
      const unchanged = await linkOut('.claude')
      await expect(files.write('.claude/settings.json', '{}')).rejects.toMatchObject({
        code: 'OUTSIDE_BRAIN',
      })
      await expect(files.read('.claude/settings.json')).rejects.toMatchObject({
        code: 'OUTSIDE_BRAIN',
      })
      unchanged()
    })
  })
}
