/**
 * Somnus as a user installs it from this repository: `npm pack`, `npm i -D <tarball>` into a fresh
 * project, `npx somnus init`, with no `somnus` on PATH. Every command Somnus then tells Claude to
 * run (the rem-sleep agent, the skill, the SessionStart directive and snapshot, and `somnus
 * snapshot`, which the skill tells Claude to run) must run as
 * written, through a shell as Claude Code's Bash tool runs it. Before this was fixed, `init`
 * installed no agent and every `somnus …` the agent named failed with "command not found".
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  installPacked,
  PATH_WITHOUT_SOMNUS,
  type PackedInstall,
  packedTarball,
} from '../support/packed-install.ts'
import {
  bareSomnusCommands,
  commandsIn,
  fillPlaceholders,
  placeholdersOf,
} from '../support/somnus-commands.ts'

const AGENT = '.claude/agents/somnus-rem-sleep.md'
const SKILL = '.claude/skills/somnus/SKILL.md'

interface ShellRun {
  status: number | null
  stdout: string
  stderr: string
}

describe('Somnus installed with npm i -D from the packed tarball, somnus not on PATH', () => {
  let workspace: string
  let project: string
  let env: NodeJS.ProcessEnv
  let install: PackedInstall
  let initRun: ShellRun
  /** `"<node>" "<project>/node_modules/somnus/bin/somnus.js"`. */
  let somnus: string

  /** Runs `script` with bash in the project, as Claude Code's Bash tool would. */
  const shell = (script: string, input?: string): ShellRun => {
    const run = spawnSync('bash', ['-c', script], {
      cwd: project,
      env,
      encoding: 'utf8',
      timeout: 60_000,
      ...(input === undefined ? {} : { input }),
    })
    return { status: run.status, stdout: run.stdout, stderr: run.stderr }
  }

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-packed-')))
    project = join(workspace, 'my-app')
    const home = join(workspace, 'home')
    mkdirSync(home)
    install = installPacked(project, await packedTarball())
    if (install.method !== 'npm') {
      process.stderr.write(
        `[somnus tests] npm could not install the tarball offline, so it was unpacked with linked dependencies instead:\n${install.npmOutput.slice(-600)}\n`,
      )
    }
    env = {
      PATH: PATH_WITHOUT_SOMNUS,
      HOME: home,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    }
    initRun = shell('npx somnus init')
    somnus = `"${process.execPath}" "${install.packageRoot}/bin/somnus.js"`
  }, 300_000)

  afterAll(() => {
    // A detached pattern encode started by SessionEnd may still be writing under HOME.
    if (workspace)
      rmSync(workspace, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  })

  it('leaves somnus off PATH: only npx and absolute paths reach it', () => {
    expect(shell('command -v somnus').status).not.toBe(0)
    expect(shell('somnus --version').stderr).toMatch(/somnus: command not found/)
  })

  it('`npx somnus init` wires the hooks and installs the agent and the skill for this install', () => {
    expect(initRun.status, initRun.stderr).toBe(0)
    expect(initRun.stdout).toContain(`Installed ${AGENT}.`)
    expect(initRun.stdout).toContain(`Installed ${SKILL}.`)
    const settings = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'))
    const stop = settings.hooks.Stop[0].hooks[0].command as string
    expect(stop).toBe(`"${process.execPath}" "${install.packageRoot}/dist/hook.cjs" stop`)
    // Idempotent: a second run changes nothing and warns about nothing.
    const again = shell('npx somnus init')
    expect(again.status, again.stderr).toBe(0)
    expect(again.stdout).toContain('Nothing to do.')
    expect(again.stderr).toBe('')
  })

  it('every command in the agent, the skill and the SessionStart output runs as written', () => {
    // Debt above the threshold and a critical bookmark: the SessionStart directive at its fullest.
    for (let index = 0; index < 4; index += 1) {
      expect(shell(`${somnus} sleep add 3 "design work ${index}"`).status).toBe(0)
    }
    const bookmark = shell(`${somnus} bookmark add -s 3 "Tokens never go to localStorage"`)
    expect(bookmark.status, bookmark.stderr).toBe(0)

    // SessionStart, exactly as Claude Code runs the hook command from settings.json.
    const settings = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'))
    const sessionStart = settings.hooks.SessionStart[0].hooks[0].command as string
    const payload = {
      session_id: 'a6c1e1f0-0000-4000-8000-000000000001',
      transcript_path: join(workspace, 'none.jsonl'),
      cwd: project,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }
    const context = shell(sessionStart, JSON.stringify(payload))
    expect(context.status).toBe(0)
    expect(context.stdout.startsWith('>>> CONSOLIDATION REQUIRED <<<'), context.stdout).toBe(true)
    expect(context.stdout).toContain('Dispatch the somnus-rem-sleep sub-agent')

    // `somnus snapshot`, as the skill tells Claude to run it, and as a user runs it with npx.
    const snapshot = shell(`${somnus} snapshot --peek`)
    expect(snapshot.status, snapshot.stderr).toBe(0)
    const npxSnapshot = shell('npx somnus snapshot --peek')
    expect(npxSnapshot.status, npxSnapshot.stderr).toBe(0)

    const texts = {
      agent: readFileSync(join(project, AGENT), 'utf8'),
      skill: readFileSync(join(project, SKILL), 'utf8'),
      'SessionStart output': context.stdout,
      'somnus snapshot': snapshot.stdout,
      'npx somnus snapshot': npxSnapshot.stdout,
    }
    const commands = new Set<string>()
    for (const [name, text] of Object.entries(texts)) {
      expect(bareSomnusCommands(text), `${name} names a bare somnus`).toEqual([])
      const found = commandsIn(text, somnus)
      // A small brain's snapshot names one command (the bookmark tip); the others name many.
      const least = name.endsWith('somnus snapshot') ? 1 : 3
      expect(found.length, `${name} names no command of this install`).toBeGreaterThanOrEqual(least)
      for (const command of found) commands.add(command)
    }
    expect([...commands]).toContain(`${somnus} sleep start`)
    expect([...commands]).toContain(`${somnus} sleep done "<summary>"`)

    const failures: string[] = []
    for (const command of commands) {
      // A command with placeholders proves it reaches Somnus and names a real subcommand (its
      // help); one without runs for real.
      const runnable =
        placeholdersOf(command).length > 0
          ? `${fillPlaceholders(command, (name) => name.replace(/[^a-z0-9]+/gi, '-'))} --help`
          : command
      const run = shell(runnable)
      if (run.status !== 0 || /command not found|unknown command|error:/i.test(run.stderr))
        failures.push(`${runnable}\n  exit ${run.status}: ${run.stderr.trim().slice(0, 300)}`)
    }
    expect(failures, failures.join('\n')).toEqual([])
    expect(commands.size).toBeGreaterThan(15)
  })
})
