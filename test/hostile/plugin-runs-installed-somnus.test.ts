/**
 * Issue 18 item 1: nothing from the repository runs. The plugin's scripts, run as Claude Code runs
 * them from its plugin cache, never start `$CLAUDE_PROJECT_DIR/node_modules/.bin/somnus` (nor one
 * reached through a relative or in-project PATH entry); `somnus init` wires absolute commands.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../../src/surfaces/cli/version.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { REPO_ROOT } from '../support/shared-data.ts'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-hostile-bin-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

const project = join(base, 'project')
const home = join(base, 'home')
const marker = join(base, 'planted-somnus-ran')
/** The plugin as `claude plugin install` leaves it: a copy in the cache, no package beside it. */
const cachedPlugin = join(home, '.claude', 'plugins', 'cache', 'somnus', 'somnus', VERSION)
/** A real `somnus` on PATH: the user's global install. */
const globalBin = join(base, 'global-bin')
const nodeDir = dirname(process.execPath)

beforeAll(async () => {
  await ensureBuilt()
  mkdirSync(home)
  mkdirSync(project)
  cpSync(join(REPO_ROOT, 'plugin'), cachedPlugin, { recursive: true })
  mkdirSync(globalBin)
  const real = join(globalBin, 'somnus')
  writeFileSync(real, `#!/bin/sh\nexec "${process.execPath}" "${SOMNUS_BIN}" "$@"\n`)
  chmodSync(real, 0o755)
  // What a hostile repository (or any dependency with a `somnus` bin) plants.
  const planted = join(project, 'node_modules', '.bin', 'somnus')
  mkdirSync(dirname(planted), { recursive: true })
  writeFileSync(planted, `#!/bin/sh\necho "$@" >> "${marker}"\necho planted\n`)
  chmodSync(planted, 0o755)
  const init = spawnSync(process.execPath, [SOMNUS_BIN, 'init', '--plugin'], {
    cwd: project,
    env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: join(base, 'other-home') },
    encoding: 'utf8',
  })
  expect(init.status, init.stderr).toBe(0)
}, 300_000)

function runScript(script: string, args: string[], path: string, stdin = '') {
  return spawnSync(join(cachedPlugin, 'scripts', script), args, {
    cwd: project,
    input: stdin,
    encoding: 'utf8',
    env: { PATH: path, HOME: home, CLAUDE_PROJECT_DIR: project },
    timeout: 30_000,
  })
}

const sessionStart = JSON.stringify({
  session_id: 's1',
  cwd: project,
  hook_event_name: 'SessionStart',
  source: 'startup',
})

describe('the plugin runs only the installed Somnus', () => {
  it('runs the somnus on PATH, not the planted node_modules/.bin/somnus, for hooks and commands', () => {
    const path = `${globalBin}:${nodeDir}:/usr/bin:/bin`
    const hook = runScript('somnus-hook', ['session-start'], path, sessionStart)
    expect(hook.status, hook.stderr).toBe(0)
    expect(hook.stdout).toContain('Agent Context')
    const cli = runScript('somnus', ['--version'], path)
    expect(cli.stdout.trim()).toBe(VERSION)
    expect(existsSync(marker)).toBe(false)
  })

  it('skips PATH entries the project controls: relative ones, node_modules/.bin, folders inside it', () => {
    const planted = join(project, 'node_modules', '.bin')
    for (const entry of ['node_modules/.bin', '', '.', planted, join(project, 'tools')]) {
      mkdirSync(join(project, 'tools'), { recursive: true })
      cpSync(join(planted, 'somnus'), join(project, 'tools', 'somnus'))
      const path = `${entry}:${globalBin}:${nodeDir}:/usr/bin:/bin`
      const hook = runScript('somnus-hook', ['stop'], path, '{"session_id":"s1"}')
      expect(hook.status, hook.stderr).toBe(0)
      const cli = runScript('somnus', ['--version'], path)
      expect(cli.stdout.trim(), `PATH entry "${entry}"`).toBe(VERSION)
    }
    expect(existsSync(marker)).toBe(false)
  })

  it('with no installed Somnus, a hook says so and exits 0; the planted one still never runs', () => {
    const path = `${nodeDir}:/usr/bin:/bin`
    const hook = runScript('somnus-hook', ['stop'], path, '{"session_id":"s1"}')
    expect(hook.status).toBe(0)
    expect(hook.stderr).toMatch(/no installed somnus found .*node_modules is never used/)
    expect(runScript('somnus', ['--version'], path).status).toBe(127)
    expect(existsSync(marker)).toBe(false)
  })

  it('runs the install `somnus init --plugin` recorded in ~/.somnus/install', () => {
    const init = spawnSync(process.execPath, [SOMNUS_BIN, 'init', '--plugin'], {
      cwd: project,
      env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: home },
      encoding: 'utf8',
    })
    expect(init.status, init.stderr).toBe(0)
    expect(init.stdout).toContain(join(home, '.somnus', 'install'))
    const path = `${nodeDir}:/usr/bin:/bin`
    const hook = runScript('somnus-hook', ['session-start'], path, sessionStart)
    expect(hook.stdout).toContain('Agent Context')
    expect(runScript('somnus', ['--version'], path).stdout.trim()).toBe(VERSION)
    expect(existsSync(marker)).toBe(false)
  })

  it('ignores a relative SOMNUS_BIN', () => {
    const hook = spawnSync(join(cachedPlugin, 'scripts', 'somnus'), ['--version'], {
      cwd: project,
      encoding: 'utf8',
      env: {
        PATH: `${globalBin}:${nodeDir}:/usr/bin:/bin`,
        HOME: home,
        CLAUDE_PROJECT_DIR: project,
        SOMNUS_BIN: 'node_modules/.bin/somnus',
      },
    })
    expect(hook.stderr).toContain('SOMNUS_BIN must be an absolute path')
    expect(existsSync(marker)).toBe(false)
  })
})

describe('somnus init wires hooks that name this install by absolute path', () => {
  it('writes no repository-relative command into .claude/settings.json or .mcp.json', () => {
    const other = join(base, 'wired')
    mkdirSync(other)
    const init = spawnSync(process.execPath, [SOMNUS_BIN, 'init'], {
      cwd: other,
      env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: home },
      encoding: 'utf8',
    })
    expect(init.status, init.stderr).toBe(0)
    const settings = JSON.parse(readFileSync(join(other, '.claude', 'settings.json'), 'utf8'))
    const commands: string[] = Object.values(
      settings.hooks as Record<string, { hooks: { command: string }[] }[]>,
    ).flatMap((entries) => entries.flatMap((entry) => entry.hooks.map((hook) => hook.command)))
    expect(commands.length).toBeGreaterThan(4)
    for (const command of commands) {
      const [node, entry] = [...command.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1])
      expect(isAbsolute(node ?? ''), command).toBe(true)
      expect(entry, command).toBe(join(REPO_ROOT, 'dist', 'hook.cjs'))
      expect(command).not.toMatch(/CLAUDE_PROJECT_DIR|node_modules\/\.bin|npx/)
    }
    const mcp = JSON.parse(readFileSync(join(other, '.mcp.json'), 'utf8'))
    expect(isAbsolute(mcp.mcpServers.somnus.command)).toBe(true)
    expect(mcp.mcpServers.somnus.args[0]).toBe(join(REPO_ROOT, 'bin', 'somnus.js'))
  })
})
