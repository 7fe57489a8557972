import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import { findPackageRoot, readTemplates } from './init.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())

const settingsOf = () => JSON.parse(project.read('.claude/settings.json'))
const expectedCommand = (verb: string) =>
  `"${process.execPath}" "${join(REPO_ROOT, 'dist', 'hook.cjs')}" ${verb}`

function listTree(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listTree(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  )
}

describe('somnus init', () => {
  it('creates the brain from the templates and wires six hooks to this install', async () => {
    project = createBrainCliProject({ brain: false })
    const run = await project.run(['init'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain(`Created ${project.root}:`)
    expect(listTree(project.root).sort()).toEqual([
      '.gitignore',
      'core/0.soul.md',
      'core/1.user.md',
      'core/2.memory.md',
      'core/3.style_guide_and_branding.md',
      'core/4.tech_stack.md',
      'core/5.data_structures.sql',
      'core/6.system_flow.md',
      'core/CHANGELOG.json',
      'core/RELEASES.json',
      'core/features/.gitkeep',
      'knowledge/.gitkeep',
      'state/.gitkeep',
      'state/.sleep.json',
    ])
    expect(project.read('_agent_context/core/2.memory.md')).toMatch(
      /^---\nname: Memory\ntype: memory\nsummary: .+\nupdated: "\d{4}-\d{2}-\d{2}"\n---/,
    )
    expect(project.read('_agent_context/core/2.memory.md')).not.toContain('{{')
    expect(project.read('_agent_context/.gitignore')).toContain(
      'state/.somnus-hook.log\n*.corrupt-*\n',
    )
    expect(JSON.parse(project.read('_agent_context/state/.sleep.json')).debt).toBe(0)
    const hooks = settingsOf().hooks
    expect(hooks.SessionStart).toEqual([
      {
        matcher: 'startup|resume|compact|clear',
        hooks: [{ type: 'command', command: expectedCommand('session-start'), timeout: 10 }],
      },
    ])
    for (const [event, verb] of [
      ['Stop', 'stop'],
      ['SubagentStop', 'subagent-stop'],
      ['PreCompact', 'pre-compact'],
      ['SessionEnd', 'session-end'],
      ['UserPromptSubmit', 'user-prompt-submit'],
    ]) {
      expect(hooks[event as string]).toEqual([
        { hooks: [{ type: 'command', command: expectedCommand(verb as string), timeout: 5 }] },
      ])
    }
    expect(existsSync(join(REPO_ROOT, 'dist', 'hook.cjs'))).toBe(true)
    // The agent that SessionStart names, and the skill, run this install by absolute path too.
    const cli = `"${process.execPath}" "${join(REPO_ROOT, 'bin', 'somnus.js')}"`
    expect(run.stdout).toContain('Installed .claude/agents/somnus-rem-sleep.md.')
    expect(project.read('.claude/agents/somnus-rem-sleep.md')).toContain(`\`${cli} sleep start\``)
    expect(project.read('.claude/skills/somnus/SKILL.md')).toContain(`\`${cli} sleep status\``)
  })

  it('is a no-op the second time, and says what already existed', async () => {
    project = createBrainCliProject({ brain: false })
    await project.run(['init'])
    project.write('_agent_context/core/0.soul.md', 'my own soul\n')
    const settingsBefore = project.read('.claude/settings.json')
    const again = await project.run(['init'])
    expect(again.code).toBe(0)
    expect(again.stdout).toContain(`Already there in ${project.root}: 14 files`)
    expect(again.stdout).toContain('Hooks already wired')
    expect(again.stdout).toContain('Nothing to do.')
    expect(project.read('_agent_context/core/0.soul.md')).toBe('my own soul\n')
    expect(project.read('.claude/settings.json')).toBe(settingsBefore)
  })

  it.skipIf(spawnSync('git', ['--version']).status !== 0)(
    'makes every state dot-file git-ignored, tasks and state/.gitkeep tracked; a re-run adds missing rules',
    async () => {
      project = createBrainCliProject({ brain: false })
      expect(spawnSync('git', ['init', '-q', project.project]).status).toBe(0)
      // A brain made by an earlier Somnus, whose .gitignore had only the first two rules.
      project.write(
        '_agent_context/.gitignore',
        'node_modules\nstate/.somnus-hook.log\n*.corrupt-*\n',
      )
      expect((await project.run(['init'])).code).toBe(0)
      const ignored = (path: string) =>
        spawnSync('git', ['check-ignore', '-q', `_agent_context/${path}`], { cwd: project.project })
          .status === 0
      for (const path of [
        'state/.sleep.json',
        'state/.sleep-history.json',
        'state/.sleep-run.json',
        'state/.somnus-hook.log',
        'state/.somnus-hook.log.1',
        'state/.sleep.json.lock/',
        'state/.sleep.json.lock/x',
        'state/.sleep.json.4242.1.k3j9x0',
        'state/.sleep-run.json.bad-2026-03-01',
        'state/.sleep.json.corrupt-2026-03-01T12-00-00.000Z',
      ]) {
        expect(ignored(path), path).toBe(true)
      }
      for (const path of ['state/.gitkeep', 'state/fix-login.md', 'core/2.memory.md']) {
        expect(ignored(path), path).toBe(false)
      }
      expect(project.read('_agent_context/.gitignore')).toMatch(/^node_modules\n/)
    },
  )

  it('merges into a settings.json holding other keys and hooks', async () => {
    project = createBrainCliProject({ brain: false })
    const theirs = {
      model: 'opus',
      env: { FOO: '1' },
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
        PostToolUse: [
          { matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] },
        ],
      },
    }
    project.write('.claude/settings.json', JSON.stringify(theirs))
    expect((await project.run(['init', project.project])).code).toBe(0)
    expect((await project.run(['init', project.project])).code).toBe(0)
    const settings = settingsOf()
    expect(settings.model).toBe('opus')
    expect(settings.env).toEqual({ FOO: '1' })
    expect(settings.hooks.PostToolUse).toEqual(theirs.hooks.PostToolUse)
    expect(settings.hooks.Stop).toEqual([
      theirs.hooks.Stop[0],
      { hooks: [{ type: 'command', command: expectedCommand('stop'), timeout: 5 }] },
    ])
  })

  it('leaves an invalid settings.json untouched, creates nothing, and says how to fix it', async () => {
    project = createBrainCliProject({ brain: false })
    project.write('.claude/settings.json', '{ "hooks": { ')
    const run = await project.run(['init'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /settings\.json is not valid JSON .*Fix the file, then run `somnus init` again; nothing was written/,
    )
    expect(project.read('.claude/settings.json')).toBe('{ "hooks": { ')
    expect(existsSync(project.root)).toBe(false)
  })

  it('with --plugin writes no hooks and prints how to install the plugin', async () => {
    project = createBrainCliProject({ brain: false })
    const run = await project.run(['init', '--plugin'])
    expect(run.code).toBe(0)
    expect(existsSync(join(project.project, '.claude', 'settings.json'))).toBe(false)
    expect(existsSync(join(project.root, 'core', '0.soul.md'))).toBe(true)
    expect(run.stdout).toContain(`claude --plugin-dir "${join(REPO_ROOT, 'plugin')}"`)
    // The package root holds .claude-plugin/marketplace.json (validated by the real CLI elsewhere).
    expect(run.stdout).toContain(`claude plugin marketplace add "${REPO_ROOT}"`)
  })

  it('refuses to nest a brain under another one unless forced', async () => {
    project = createBrainCliProject({ brain: false })
    await project.run(['init'])
    const nested = join(project.project, 'packages', 'api')
    const refused = await project.run(['init', nested])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/A brain already exists at .*--force/)
    const forced = await project.run(['init', nested, '--force', '--json'])
    expect(forced.code).toBe(0)
    expect(JSON.parse(forced.stdout)).toMatchObject({
      root: join(nested, '_agent_context'),
      hooksChanged: true,
      plugin: null,
    })
  })
})

describe('templates', () => {
  it('ship every file init needs, with the frontmatter each core file must have', () => {
    const templates = readTemplates(join(findPackageRoot(), 'templates', 'init'))
    for (const [path, text] of Object.entries(templates)) {
      if (path.endsWith('.md'))
        expect(text, path).toMatch(/^---\nname: .+\ntype: .+\nsummary: .+\nupdated: .+\n---\n/)
    }
    expect(readFileSync(join(findPackageRoot(), 'package.json'), 'utf8')).toContain('"templates"')
  })
})

describe('somnus init and the MCP server', () => {
  const server = {
    type: 'stdio',
    command: process.execPath,
    args: [join(REPO_ROOT, 'bin', 'somnus.js'), 'mcp'],
  }

  it('registers somnus mcp in .mcp.json by absolute path, beside the servers already there', async () => {
    project = createBrainCliProject({ brain: false })
    project.write(
      '.mcp.json',
      `${JSON.stringify({ mcpServers: { other: { command: 'other-mcp', args: ['--x'] } }, note: 'kept' }, null, 2)}\n`,
    )
    const run = await project.run(['init'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('Registered the Somnus MCP server')
    expect(JSON.parse(project.read('.mcp.json'))).toEqual({
      mcpServers: { other: { command: 'other-mcp', args: ['--x'] }, somnus: server },
      note: 'kept',
    })
  })

  it('refreshes a stale entry on a re-run and leaves a current one alone', async () => {
    project = createBrainCliProject({ brain: false })
    project.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: { somnus: { command: '/old/node', args: ['/old/somnus.js', 'mcp'] } },
      }),
    )
    expect((await project.run(['init'])).code).toBe(0)
    expect(JSON.parse(project.read('.mcp.json')).mcpServers.somnus).toEqual(server)
    const again = await project.run(['init'])
    expect(again.stdout).toContain('MCP server already registered')
    expect(again.stdout).toContain('Nothing to do.')
  })

  it('stops on a broken .mcp.json with nothing written', async () => {
    project = createBrainCliProject({ brain: false })
    project.write('.mcp.json', '{ "mcpServers": ')
    const run = await project.run(['init'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/\.mcp\.json is not valid JSON.*Nothing was changed/)
    expect(project.read('.mcp.json')).toBe('{ "mcpServers": ')
    expect(existsSync(project.root)).toBe(false)
  })

  it('registers nothing with --plugin: the plugin ships its own server', async () => {
    project = createBrainCliProject({ brain: false })
    expect((await project.run(['init', '--plugin'])).code).toBe(0)
    expect(existsSync(join(project.project, '.mcp.json'))).toBe(false)
    const plugin = JSON.parse(readFileSync(join(REPO_ROOT, 'plugin', '.mcp.json'), 'utf8'))
    expect(plugin.mcpServers.somnus.args).toEqual(['mcp'])
  })
})
