import { describe, expect, it } from 'vitest'
import { memoryBrain } from '../../test/support/memory-brain.ts'
import { CLAUDE_SETTINGS_PATH, initBrain, mergeIgnoreLines } from './init-brain.ts'

const templates = {
  'core/0.soul.md': '---\nname: Soul\nupdated: "{{DATE}}"\n---\nSoul of {{PROJECT}}\n',
  'core/CHANGELOG.json': '[]\n',
  'knowledge/.gitkeep': '',
  '.gitignore': '# Somnus\nstate/.somnus-hook.log\n*.corrupt-*\n',
}
const hookCommand = (event: string) => `"/node" "/somnus/bin/somnus.js" hook ${event}`

describe('initBrain', () => {
  it('creates the templates with the date and project filled in, a fresh ledger and the hooks', async () => {
    const brain = memoryBrain({ now: '2026-03-01T08:00:00Z' })
    const result = await initBrain(brain, { templates, hookCommand })
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
    const settings = JSON.parse(files[CLAUDE_SETTINGS_PATH] ?? '')
    expect(Object.keys(settings.hooks)).toHaveLength(6)
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(hookCommand('Stop'))
  })

  it('is a no-op the second time and never overwrites an edited file', async () => {
    const brain = memoryBrain()
    await initBrain(brain, { templates, hookCommand })
    await brain.files.write('core/0.soul.md', 'mine')
    const before = brain.files.snapshot()
    const again = await initBrain(brain, { templates, hookCommand })
    expect(again.created).toEqual([])
    expect(again.updated).toEqual([])
    expect(again.hooksChanged).toBe(false)
    expect(again.kept).toContain('core/0.soul.md')
    expect(brain.files.snapshot()).toEqual(before)
  })

  it('writes nothing at all when settings.json is invalid', async () => {
    const brain = memoryBrain({ files: { [CLAUDE_SETTINGS_PATH]: '{ "hooks": ' } })
    await expect(initBrain(brain, { templates, hookCommand })).rejects.toThrow(
      /is not valid JSON .*Fix the file/,
    )
    expect(Object.keys(brain.files.snapshot())).toEqual([CLAUDE_SETTINGS_PATH])
  })

  it('with the plugin writes no hooks, and warns about hooks left from an earlier init', async () => {
    const brain = memoryBrain()
    const plugin = await initBrain(brain, { templates, hookCommand: null })
    expect(plugin.hookEvents).toEqual([])
    expect(brain.files.snapshot()[CLAUDE_SETTINGS_PATH]).toBeUndefined()
    await initBrain(brain, { templates, hookCommand })
    const switched = await initBrain(brain, { templates, hookCommand: null })
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
