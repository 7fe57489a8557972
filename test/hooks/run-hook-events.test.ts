/**
 * `runHook` for SessionStart output, triggers, UserPromptSubmit, PreCompact and every way a hook
 * can go wrong, against temporary brains on disk; and `somnus hook` inside the CLI process.
 */
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SomnusError } from '../../src/engine/core/errors.ts'
import { runCli } from '../../src/surfaces/cli/run-cli.ts'
import {
  defaultHookDependencies,
  type HookDependencies,
} from '../../src/surfaces/hooks/hook-dependencies.ts'
import { runHook } from '../../src/surfaces/hooks/run-hook.ts'
import {
  HOOK_TEST_NOW,
  hookWorkspaces,
  manualSessions,
  readLedger,
  runHookIn,
  writeLedger,
} from '../support/hook-workspace.ts'

const NOW = HOOK_TEST_NOW
const workspace = hookWorkspaces()
const hook = runHookIn

const manual = (scores: number[]) => manualSessions(scores, NOW)

describe('runHook SessionStart output', () => {
  it('puts CONSOLIDATION REQUIRED first at debt >= 10 and stays within the budget', async () => {
    const ws = workspace({ snapshot_budget_chars: 2500 })
    writeLedger(ws, {
      debt: 12,
      sessions: manual([3, 3, 3, 3]).map((session) => ({
        ...session,
        last_assistant_message: 'A long summary of the work. '.repeat(40),
      })),
    })
    const result = await hook(ws, 'session-start', { source: 'startup', cwd: ws.project })
    expect(result.stdout.startsWith('>>> CONSOLIDATION REQUIRED <<<')).toBe(true)
    expect(result.stdout.length).toBeLessThanOrEqual(2500)
    expect(result.stdout).toContain('# Agent Context')
    expect(result.log).toEqual([])
  })

  it("names this install's command in every command it shows, still within the budget", async () => {
    const command = '"/opt/node-v20/bin/node" "/work/my app/node_modules/somnus/bin/somnus.js"'
    const ws = workspace({ snapshot_budget_chars: 2500 })
    writeLedger(ws, {
      debt: 12,
      sessions: manual([3, 3, 3, 3]).map((session) => ({
        ...session,
        last_assistant_message: 'A long summary of the work. '.repeat(40),
      })),
      bookmarks: [
        {
          id: 'b1',
          message: 'Never store tokens in localStorage',
          salience: 3,
          created_at: NOW.toISOString(),
          session_id: null,
          task_slug: null,
        },
      ],
    })
    const result = await runHook('session-start', JSON.stringify({ cwd: ws.project }), {
      cwd: ws.project,
      env: { HOME: ws.home },
      now: NOW,
      somnusCommand: command,
    })
    expect(result.stdout.startsWith('>>> CONSOLIDATION REQUIRED <<<')).toBe(true)
    expect(result.stdout).toContain(`\`${command} sleep start\``)
    expect(result.stdout).toContain(`\`${command} sleep done "<summary>"\``)
    // The snapshot's own pointers (`somnus sleep status`, `somnus bookmark list`...) too.
    expect(result.stdout.split(command).length).toBeGreaterThan(3)
    expect(result.stdout).not.toMatch(/`somnus /)
    expect(result.stdout.length).toBeLessThanOrEqual(2500)
    expect(result.stdout).toContain('# Agent Context')
  })

  it('puts CONSOLIDATION RECOMMENDED first at debt >= 7', async () => {
    const ws = workspace()
    writeLedger(ws, { debt: 7, sessions: manual([3, 3, 1]) })
    const result = await hook(ws, 'session-start', { source: 'resume', cwd: ws.project })
    expect(result.stdout.startsWith('>> CONSOLIDATION RECOMMENDED <<')).toBe(true)
    expect(result.stdout.length).toBeLessThanOrEqual(10_000)
  })

  it('prints only the snapshot when no directive applies', async () => {
    const ws = workspace()
    const result = await hook(ws, 'session-start', '')
    expect(result.stdout).toContain('# Agent Context')
    expect(result.stdout).not.toContain('CONSOLIDATION')
  })
})

describe('runHook SessionStart triggers', () => {
  const bookmark = {
    id: 'b1',
    message: 'Chose rotating refresh tokens for the auth flow',
    salience: 2,
    created_at: NOW.toISOString(),
    session_id: null,
  }
  const trigger = {
    id: 'tr_auth',
    when: 'auth',
    remind: 'Tokens expire after 24h: refresh before API calls',
    source: null,
    created_at: NOW.toISOString(),
    fired_count: 0,
    max_fires: 3,
  }

  it('persists the fire count of each trigger the snapshot surfaced', async () => {
    const ws = workspace()
    writeLedger(ws, { bookmarks: [bookmark], triggers: [trigger] })
    const result = await hook(ws, 'session-start', { cwd: ws.project })
    expect(result.stdout).toContain('Tokens expire after 24h')
    expect((readLedger(ws).triggers as { fired_count: number }[])[0]?.fired_count).toBe(1)
  })

  it('still prints the context when the ledger cannot be written', async () => {
    const ws = workspace()
    writeLedger(ws, {
      debt: 10,
      sessions: manual([3, 3, 3, 1]),
      bookmarks: [bookmark],
      triggers: [trigger],
    })
    const lockedBrain: HookDependencies['createSomnusHooks'] = async (options) => {
      const { brain } = await defaultHookDependencies.createSomnusHooks(options)
      const update = async () => {
        throw new SomnusError('STATE_LOCKED', 'the ledger stayed locked for 15 s')
      }
      return defaultHookDependencies.createSomnusHooks({
        ...options,
        files: brain.files,
        state: { ...brain.state, update },
        unitOfWork: brain.unitOfWork,
      })
    }
    const result = await runHook(
      'session-start',
      JSON.stringify({ cwd: ws.project }),
      { cwd: ws.project, env: { HOME: ws.home }, now: NOW },
      { ...defaultHookDependencies, createSomnusHooks: lockedBrain },
    )
    expect(result.stdout.startsWith('>>> CONSOLIDATION REQUIRED <<<')).toBe(true)
    expect(result.stdout).toContain('# Agent Context')
    expect(result.log).toEqual([
      `${NOW.toISOString()} session-start trigger fire counts not saved: the ledger stayed locked for 15 s`,
    ])
  })
})

describe('runHook never blocks', () => {
  it('bad stdin: empty answer, one log line in the brain, state untouched', async () => {
    const ws = workspace()
    const result = await runHook('stop', '{not json', {
      cwd: ws.project,
      env: { HOME: ws.home },
      now: NOW,
    })
    expect(result.stdout).toBe('')
    expect(result.log).toEqual([`${NOW.toISOString()} stop stdin is not JSON (9 chars: {not json)`])
    expect(readFileSync(join(ws.root, 'state', '.somnus-hook.log'), 'utf8')).toBe(
      `${result.log[0]}\n`,
    )
    expect(existsSync(ws.ledgerPath)).toBe(false)
  })

  it('a wrong field type is logged with the field name', async () => {
    const ws = workspace()
    const result = await hook(ws, 'stop', { session_id: 42, cwd: ws.project })
    expect(result.log[0]).toMatch(/stdin field "session_id"/)
    expect(existsSync(ws.ledgerPath)).toBe(false)
  })

  it('no brain: silent, logged to $HOME/.somnus/hook.log', async () => {
    const ws = workspace()
    rmSync(ws.root, { recursive: true })
    const result = await runHook('session-start', '{}', {
      cwd: ws.dir,
      env: { HOME: ws.home },
      now: NOW,
    })
    expect(result.stdout).toBe('')
    expect(readFileSync(join(ws.home, '.somnus', 'hook.log'), 'utf8')).toMatch(
      /^2026-03-01T12:00:00.000Z session-start no _agent_context\/ at or above /,
    )
  })

  it('finds the brain from stdin cwd, then CLAUDE_PROJECT_DIR', async () => {
    const ws = workspace()
    writeLedger(ws, { debt: 5, sessions: manual([3, 2]) })
    const fromStdin = await runHook(
      'user-prompt-submit',
      JSON.stringify({ cwd: join(ws.root, 'state'), prompt: 'hi' }),
      {
        cwd: ws.home,
        env: { HOME: ws.home },
      },
    )
    expect(fromStdin.stdout).toMatch(/^\[somnus\] Sleep debt 5 \(Drowsy\)/)
    const fromEnv = await runHook('user-prompt-submit', '{}', {
      cwd: ws.home,
      env: { HOME: ws.home, CLAUDE_PROJECT_DIR: ws.project },
    })
    expect(fromEnv.stdout).toBe(fromStdin.stdout)
  })

  it('a corrupt settings file is logged and shown, and the hook still works on defaults', async () => {
    const ws = workspace()
    writeFileSync(join(ws.root, 'somnus.json'), '{oops')
    const result = await hook(ws, 'session-start', { cwd: ws.project })
    expect(result.stdout).toMatch(/^\[somnus settings\] .*somnus\.json is not valid JSON/)
    expect(result.stdout).toContain('Agent Context')
    expect(result.log[0]).toMatch(/somnus\.json is not valid JSON.*defaults/)
  })

  it('unknown events and sub-agent stops do nothing', async () => {
    const ws = workspace()
    expect((await hook(ws, 'bogus', {})).log[0]).toMatch(/unknown hook event/)
    const sub = await hook(ws, 'subagent-stop', {
      session_id: 's',
      agent_id: 'a1',
      cwd: ws.project,
    })
    expect(sub).toEqual({ stdout: '', log: [] })
    expect(existsSync(ws.ledgerPath)).toBe(false)
  })
})

describe('runHook UserPromptSubmit and PreCompact', () => {
  it('is silent below Drowsy and reminds at a ★★★ bookmark or when sleep is running', async () => {
    const ws = workspace()
    writeLedger(ws, { debt: 3, sessions: manual([3]) })
    expect((await hook(ws, 'user-prompt-submit', { prompt: 'hi', cwd: ws.project })).stdout).toBe(
      '',
    )
    const bookmark = {
      id: 'b1',
      message: 'never log tokens',
      salience: 3,
      created_at: NOW.toISOString(),
      session_id: null,
    }
    writeLedger(ws, { debt: 3, sessions: manual([3]), bookmarks: [bookmark] })
    expect((await hook(ws, 'user-prompt-submit', { cwd: ws.project })).stdout).toBe(
      '[somnus] 1 critical (★★★) bookmark waiting for consolidation.\n',
    )
    writeLedger(ws, {
      debt: 8,
      sessions: manual([3, 3, 2]),
      sleep_started_at: NOW.toISOString(),
    })
    expect((await hook(ws, 'user-prompt-submit', { cwd: ws.project })).stdout).toMatch(
      /already in progress/,
    )
  })

  it('PreCompact logs the compaction with its trigger', async () => {
    const ws = workspace()
    writeLedger(ws, { debt: 4, sessions: manual([3, 1]) })
    await hook(ws, 'pre-compact', { trigger: 'auto', custom_instructions: '', cwd: ws.project })
    expect(readLedger(ws).compaction_log).toEqual([
      {
        timestamp: NOW.toISOString(),
        trigger: 'auto',
        debt_at_compaction: 4,
        sessions_count: 2,
        bookmarks_count: 0,
      },
    ])
  })
})

describe('somnus hook in the CLI process', () => {
  function io(stdin: string, cwd: string, env: Record<string, string>) {
    const out: string[] = []
    return {
      out,
      io: {
        stdout: (text: string) => out.push(text),
        stderr: (text: string) => out.push(text),
        readStdin: async () => stdin,
        cwd,
        env,
      },
    }
  }

  it('runs the same hook and exits 0, even on bad stdin', async () => {
    const ws = workspace()
    writeLedger(ws, { debt: 9, sessions: manual([3, 3, 3]) })
    const prompt = io('{"prompt":"hi"}', ws.project, { HOME: ws.home })
    expect(await runCli(['hook', 'user-prompt-submit'], prompt.io)).toBe(0)
    expect(prompt.out.join('')).toMatch(/^\[somnus\] Sleep debt 9 \(Sleepy\)/)
    const bad = io('nope', ws.project, { HOME: ws.home })
    expect(await runCli(['hook', 'stop'], bad.io)).toBe(0)
    expect(bad.out).toEqual([])
  })

  it('lists the events in its help', async () => {
    const help = io('', tmpdir(), {})
    expect(await runCli(['hook', '--help'], help.io)).toBe(0)
    const text = help.out.join('')
    for (const event of [
      'session-start',
      'stop',
      'subagent-stop',
      'user-prompt-submit',
      'pre-compact',
      'session-end',
    ]) {
      expect(text).toContain(event)
    }
  })
})

describe('a SessionStart that fails says so', () => {
  it('a committed .sleep.json symlink: the session is told Somnus is off and why, not silence', async () => {
    const ws = workspace()
    const target = join(ws.home, 'target.json')
    writeFileSync(target, '{}\n')
    rmSync(ws.ledgerPath, { force: true })
    symlinkSync(target, ws.ledgerPath)
    const result = await hook(ws, 'session-start', { source: 'startup', cwd: ws.project })
    expect(result.stdout).toMatch(/^Somnus could not load this project's memory/)
    expect(result.stdout).toContain('remove the symlink')
    expect(result.log[0]).toMatch(/session-start failed: OUTSIDE_BRAIN/)
  })
})
