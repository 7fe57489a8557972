import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memoryBrain } from '../../../test/support/memory-brain.ts'
import { REPO_ROOT } from '../../../test/support/shared-data.ts'
import { createMemoryProjectFiles } from '../adapters/memory/memory-project-files.ts'
import { SOMNUS_CLAUDE_FILES } from '../core/claude-agent-files.ts'
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

/** The plugin's own agent and skill: the one source of what `init` installs. */
const pluginTexts = Object.fromEntries(
  SOMNUS_CLAUDE_FILES.map((file) => [
    file.pluginPath,
    readFileSync(join(REPO_ROOT, 'plugin', file.pluginPath), 'utf8'),
  ]),
)
const AGENT = '.claude/agents/somnus-rem-sleep.md'
const SKILL = '.claude/skills/somnus/SKILL.md'

describe('initBrain: the rem-sleep agent and the skill', () => {
  const installCommand = '"/opt/node" "/work/app/node_modules/somnus/bin/somnus.js"'
  const setup = () => {
    const brain = memoryBrain()
    const projectFiles = createMemoryProjectFiles()
    const init = (somnusCommand = installCommand) =>
      initBrain(brain, {
        templates,
        hookCommand,
        projectFiles,
        claudeFiles: { pluginTexts, somnusCommand },
      })
    return { projectFiles, init }
  }

  it('installs both where Claude Code finds them, every command this install runs', async () => {
    const { projectFiles, init } = setup()
    const result = await init()
    expect(result.claudeFiles).toEqual([
      { path: AGENT, action: 'create' },
      { path: SKILL, action: 'create' },
    ])
    const files = projectFiles.snapshot()
    const agent = files[AGENT] ?? ''
    expect(agent.startsWith('---\nname: somnus-rem-sleep\n')).toBe(true)
    expect(agent).toContain(`\`${installCommand} sleep start\``)
    expect(agent).toContain(`\`${installCommand} sleep done "<one-line summary`)
    expect(files[SKILL]).toContain(`\`${installCommand} bookmark add `)
    for (const text of [agent, files[SKILL] ?? '']) {
      expect(text).not.toContain('CLAUDE_PLUGIN_ROOT')
      // No command left that relies on `somnus` being on PATH.
      expect(text).not.toMatch(/`somnus /)
    }
  })

  it('is idempotent, refreshes its own file, and keeps an edited one with a warning', async () => {
    const { projectFiles, init } = setup()
    await init()
    const again = await init()
    expect(again.claudeFiles.map((file) => file.action)).toEqual(['unchanged', 'unchanged'])
    expect(again.warnings).toEqual([])

    // The install moved (or Somnus was upgraded): a file Somnus wrote and nobody edited follows.
    const moved = await init('"/opt/node" "/elsewhere/somnus/bin/somnus.js"')
    expect(moved.claudeFiles.map((file) => file.action)).toEqual(['update', 'update'])
    expect(projectFiles.snapshot()[AGENT]).toContain('/elsewhere/somnus/bin/somnus.js" sleep start')

    const edited = `${projectFiles.snapshot()[AGENT]?.replace('Step 0', 'Step zero')}`
    await projectFiles.write(AGENT, edited)
    const kept = await init()
    expect(kept.claudeFiles).toEqual([
      { path: AGENT, action: 'edited' },
      { path: SKILL, action: 'update' },
    ])
    expect(projectFiles.snapshot()[AGENT]).toBe(edited)
    expect(kept.warnings.join('\n')).toMatch(
      /\.claude\/agents\/somnus-rem-sleep\.md differs from what Somnus installs.*delete it and run `somnus init` again/,
    )
  })

  it('keeps an agent file copied in by hand, and says its commands may not run', async () => {
    const { projectFiles, init } = setup()
    await projectFiles.write(AGENT, pluginTexts['agents/somnus-rem-sleep.md'] ?? '')
    const result = await init()
    expect(result.claudeFiles[0]).toEqual({ path: AGENT, action: 'edited' })
    expect(projectFiles.snapshot()[AGENT]).toBe(pluginTexts['agents/somnus-rem-sleep.md'])
    expect(result.warnings.join('\n')).toMatch(/may not run in this project/)
  })

  it('installs nothing with the plugin (it brings its own) and refuses a package without them', async () => {
    const brain = memoryBrain()
    const projectFiles = createMemoryProjectFiles()
    const plugin = await initBrain(brain, { templates, hookCommand: null, projectFiles })
    expect(plugin.claudeFiles).toEqual([])
    expect(projectFiles.snapshot()).toEqual({})
    const broken = initBrain(brain, {
      templates,
      hookCommand,
      projectFiles,
      claudeFiles: { pluginTexts: {}, somnusCommand: installCommand },
    })
    await expect(broken).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(projectFiles.snapshot()).toEqual({})
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
