import { describe, expect, it } from 'vitest'
import { memoryBrain } from '../../test/support/memory-brain.ts'
import { createMemoryProjectFiles } from '../adapters/memory/memory-project-files.ts'
import { CLAUDE_SETTINGS_PATH, initBrain, mergeIgnoreLines } from './init-brain.ts'

const templates = {
  'core/0.soul.md': '---\nname: Soul\nupdated: "{{DATE}}"\n---\nSoul of {{PROJECT}}\n',
  'core/CHANGELOG.json': '[]\n',
  'knowledge/.gitkeep': '',
  '.gitignore': '# Somnus\nstate/.somnus-hook.log\n*.corrupt-*\n',
}
const hookCommand = (event: string) => `"/node" "/somnus/bin/somnus.js" hook ${event}`

/** A memory brain and project, and `init` over them with `hookCommand` (null: --plugin). */
function project(settings: Record<string, string> = {}, now?: string) {
  const brain = memoryBrain(now ? { now } : {})
  const projectFiles = createMemoryProjectFiles(settings)
  const init = (command: typeof hookCommand | null = hookCommand) =>
    initBrain(brain, { templates, hookCommand: command, projectFiles })
  return { brain, projectFiles, init }
}

describe('initBrain', () => {
  it('creates the templates with the date and project filled in, a fresh ledger and the hooks', async () => {
    const { brain, projectFiles, init } = project({}, '2026-03-01T08:00:00Z')
    const result = await init()
    expect(result.created).toEqual([
      '.gitignore',
      'core/0.soul.md',
      'core/CHANGELOG.json',
      'knowledge/.gitkeep',
      'state/.sleep.json',
    ])
    expect(result.kept).toEqual([])
    expect(result.hooksChanged).toBe(true)
    const files = brain.files.snapshot()
    expect(files['core/0.soul.md']).toBe(
      '---\nname: Soul\nupdated: "2026-03-01"\n---\nSoul of project\n',
    )
    expect(JSON.parse(files['state/.sleep.json'] ?? '')).toMatchObject({
      debt: 0,
      sessions: [],
      bookmarks: [],
    })
    const settings = JSON.parse(projectFiles.snapshot()[CLAUDE_SETTINGS_PATH] ?? '')
    expect(Object.keys(settings.hooks)).toHaveLength(6)
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(hookCommand('Stop'))
  })

  it('is a no-op the second time and never overwrites an edited file', async () => {
    const { brain, projectFiles, init } = project()
    await init()
    await brain.files.write({ kind: 'core', name: 'soul' }, 'mine')
    const before = { ...brain.files.snapshot(), ...projectFiles.snapshot() }
    const again = await init()
    expect(again.created).toEqual([])
    expect(again.updated).toEqual([])
    expect(again.hooksChanged).toBe(false)
    expect(again.kept).toContain('core/0.soul.md')
    expect({ ...brain.files.snapshot(), ...projectFiles.snapshot() }).toEqual(before)
  })

  it('writes nothing at all when settings.json is invalid', async () => {
    const { brain, projectFiles, init } = project({ [CLAUDE_SETTINGS_PATH]: '{ "hooks": ' })
    await expect(init()).rejects.toThrow(/is not valid JSON .*Fix the file/)
    expect(brain.files.snapshot()).toEqual({})
    expect(Object.keys(projectFiles.snapshot())).toEqual([CLAUDE_SETTINGS_PATH])
  })

  it('writes nothing at all when `.claude` is a file, whatever the mode', async () => {
    for (const command of [hookCommand, null]) {
      const { brain, init } = project({ '.claude': 'a file\n' })
      await expect(init(command)).rejects.toMatchObject({ code: 'ENVIRONMENT' })
      expect(brain.files.snapshot()).toEqual({})
    }
  })

  it('refuses a template that is no document of the brain, before writing anything', async () => {
    for (const path of ['notes/x.md', '../outside.md', 'state/.sleep-run.json']) {
      const brain = memoryBrain()
      const projectFiles = createMemoryProjectFiles()
      const init = initBrain(brain, {
        templates: { ...templates, [path]: 'x' },
        hookCommand,
        projectFiles,
      })
      await expect(init, path).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect(brain.files.snapshot()).toEqual({})
      expect(projectFiles.snapshot()).toEqual({})
    }
  })

  it('with the plugin writes no hooks, and warns about hooks left from an earlier init', async () => {
    const { projectFiles, init } = project()
    const plugin = await init(null)
    expect(plugin.hookEvents).toEqual([])
    expect(projectFiles.snapshot()[CLAUDE_SETTINGS_PATH]).toBeUndefined()
    await init()
    const switched = await init(null)
    expect(switched.warnings.join()).toMatch(/still holds Somnus hooks/)
  })
})

describe('mergeIgnoreLines', () => {
  it('adds only the missing rules to an existing file', () => {
    expect(mergeIgnoreLines(null, 'a\n')).toEqual({ text: 'a\n', existed: false })
    expect(mergeIgnoreLines('node_modules\na', '# c\na\nb\n')).toEqual({
      text: 'node_modules\na\nb\n',
      existed: true,
    })
    expect(mergeIgnoreLines('a\nb\n', 'a\nb\n')).toEqual({ text: null, existed: true })
  })
})
