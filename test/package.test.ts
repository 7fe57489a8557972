/** The package's promises to its users: version in step, bin present, plugin manifest valid. */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SOMNUS_CLAUDE_FILES } from '../src/brain/core/claude-agent-files.ts'
import { PLUGIN_SOMNUS_COMMAND } from '../src/brain/core/somnus-command.ts'
import { VERSION } from '../src/surfaces/cli/version.ts'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'
import { TESTS_FIRST } from './support/service-fixtures.ts'
import { REPO_ROOT } from './support/shared-data.ts'
import { bareSomnusCommands, commandsIn } from './support/somnus-commands.ts'

const readJson = (path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8'))

describe('package', () => {
  it('reports the version that package.json and the plugin declare', () => {
    expect(VERSION).toBe(readJson('package.json').version)
    expect(readJson('plugin/.claude-plugin/plugin.json').version).toBe(VERSION)
  })

  it('ships a plugin whose hooks.json uses the wrapper object and calls the plugin script', () => {
    const hooks = readJson('plugin/hooks/hooks.json')
    expect(Object.keys(hooks.hooks).sort()).toEqual(
      [
        'PreCompact',
        'SessionEnd',
        'SessionStart',
        'Stop',
        'SubagentStop',
        'UserPromptSubmit',
      ].sort(),
    )
    for (const entries of Object.values(hooks.hooks) as { hooks: { command: string }[] }[][]) {
      for (const entry of entries) {
        for (const hook of entry.hooks) {
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code expands it, not JS
          expect(hook.command).toContain('${CLAUDE_PLUGIN_ROOT}/scripts/somnus-hook')
        }
      }
    }
  })
})

const CLAUDE_BIN = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')

describe.skipIf(!existsSync(CLAUDE_BIN))('plugin, as the real Claude Code CLI sees it', () => {
  const validate = (path: string) =>
    spawnSync(CLAUDE_BIN, ['plugin', 'validate', path], {
      encoding: 'utf8',
      env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'somnus-claude-home-')) },
      timeout: 60_000,
    })

  it('validates the plugin: hooks, the rem-sleep agent and the skill', () => {
    const result = validate(join(REPO_ROOT, 'plugin'))
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('agents: somnus:somnus-rem-sleep')
    expect(result.stdout).toContain('skills: somnus:somnus')
    expect(result.stdout.match(/hooks: /g)).toHaveLength(6)
  })

  it('validates the marketplace at the package root', () => {
    const result = validate(REPO_ROOT)
    expect(result.status, result.stdout + result.stderr).toBe(0)
  })
})

describe('the plugin names Somnus by its own script, which works without somnus on PATH', () => {
  const pathWithoutSomnus = '/usr/bin:/bin'

  it('every command in the agent and the skill runs the plugin script, none a bare somnus', () => {
    for (const file of SOMNUS_CLAUDE_FILES) {
      const text = readFileSync(join(REPO_ROOT, 'plugin', file.pluginPath), 'utf8')
      expect(bareSomnusCommands(text), file.pluginPath).toEqual([])
      expect(commandsIn(text, PLUGIN_SOMNUS_COMMAND).length, file.pluginPath).toBeGreaterThan(4)
    }
  })

  it('scripts/somnus runs the package it ships in; somnus-hook does nothing with SOMNUS_SKIP_HOOKS=1', async () => {
    await ensureBuilt()
    const cli = spawnSync(join(REPO_ROOT, 'plugin/scripts/somnus'), ['--version'], {
      encoding: 'utf8',
      env: { PATH: pathWithoutSomnus, HOME: tmpdir() },
    })
    expect(cli.status, cli.stderr).toBe(0)
    expect(cli.stdout.trim()).toBe(VERSION)
    const hook = spawnSync(join(REPO_ROOT, 'plugin/scripts/somnus-hook'), ['session-start'], {
      encoding: 'utf8',
      input: '{"cwd":"/"}',
      env: { PATH: pathWithoutSomnus, HOME: tmpdir(), SOMNUS_SKIP_HOOKS: '1' },
    })
    expect(hook).toMatchObject({ status: 0, stdout: '', stderr: '' })
  })
})

describe('the word vectors identity consolidation groups with', () => {
  it('ship in the package with their license, attribution and derivation', () => {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      }),
    ) as { files: { path: string; size: number }[] }[]
    const shipped = new Map(packed?.files.map((file) => [file.path, file.size]))
    expect(shipped.get('data/word-vectors/glove-100d.swv')).toBeGreaterThan(5_000_000)
    for (const path of ['LICENSE', 'ACKNOWLEDGEMENT.md', 'README.md'])
      expect(shipped.has(`data/word-vectors/${path}`), path).toBe(true)
    expect(readFileSync(join(REPO_ROOT, 'data/word-vectors/ACKNOWLEDGEMENT.md'), 'utf8')).toContain(
      'GloVe',
    )
  })

  it('are found by the built CLI, whose CPU threads group with them', async () => {
    await ensureBuilt()
    const home = mkdtempSync(join(tmpdir(), 'somnus-word-vectors-'))
    try {
      const somnus = (args: string[], input = '') =>
        spawnSync(process.execPath, [SOMNUS_BIN, ...args, '--db', join(home, 'db')], {
          encoding: 'utf8',
          input,
          cwd: home,
          env: { PATH: process.env.PATH, HOME: home },
          timeout: 120_000,
        })
      const lines = TESTS_FIRST.map((becoming, index) =>
        JSON.stringify({
          handoff_id: `h-${index}`,
          created_at: '2026-01-01T00:00:00Z',
          experienced: `Session ${index}.`,
          becoming,
        }),
      ).join('\n')
      const imported = somnus(['handoffs', 'import', '--format', 'jsonl'], lines)
      expect(imported.status, imported.stderr).toBe(0)
      const run = somnus([
        'consolidate',
        'run',
        '--job-type',
        'identity_consolidation',
        '--as-of',
        '2026-02-01',
        '--json',
      ])
      expect(run.status, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout).results[0].details).toMatchObject({ principles_created: 1 })
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
