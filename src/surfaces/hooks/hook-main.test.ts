/**
 * The built hook as a process (hook-loader.ts running hook-main.ts): how it takes stdin (pipe,
 * file, nothing, a pipe left open), writes stdout through file descriptors instead of
 * process.stdin and process.stdout, and keeps its code cache.
 */
import { spawn } from 'node:child_process'
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../../../test/support/build-once.ts'
import {
  createHookWorkspace,
  type HookWorkspace,
  manualSessions,
  readLedger,
  writeLedger,
} from '../../../test/support/hook-workspace.ts'
import { REPO_ROOT } from '../../../test/support/shared-data.ts'
import { spawnHook } from '../../../test/support/spawn-hook.ts'

interface Run {
  code: number | null
  stdout: string
  /** Milliseconds from spawn to the first stdout, and to exit. */
  outputAfterMs: number
  exitAfterMs: number
}

/**
 * Runs `somnus hook <event>`. `stdin`: text written to a pipe and closed; `{ open }`: text written
 * to a pipe left open for `closeAfterMs`; `{ file }`: a file as stdin; `null`: no stdin at all.
 */
function runHook(
  ws: HookWorkspace,
  event: string,
  stdin: string | { open: string; closeAfterMs: number } | { file: string } | null,
  env: Record<string, string> = {},
): Promise<Run> {
  const started = Date.now()
  const fd =
    stdin !== null && typeof stdin === 'object' && 'file' in stdin
      ? openSync(stdin.file, 'r')
      : null
  const child = spawn(process.execPath, [SOMNUS_BIN, 'hook', event], {
    cwd: ws.project,
    env: { PATH: process.env.PATH, HOME: ws.home, ...env },
    stdio: [fd ?? (stdin === null ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
  })
  if (fd !== null) closeSync(fd)
  let stdout = ''
  let outputAfterMs = -1
  child.stdout?.on('data', (chunk) => {
    if (outputAfterMs === -1) outputAfterMs = Date.now() - started
    stdout += chunk
  })
  child.stdin?.on('error', () => undefined)
  if (typeof stdin === 'string') child.stdin?.end(stdin)
  let closer: NodeJS.Timeout | undefined
  if (stdin !== null && typeof stdin === 'object' && 'open' in stdin) {
    child.stdin?.write(stdin.open)
    closer = setTimeout(() => child.stdin?.end(), stdin.closeAfterMs)
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(closer)
      resolve({ code, stdout, outputAfterMs, exitAfterMs: Date.now() - started })
    })
  })
}

describe('the hook entry as a process', () => {
  let ws: HookWorkspace
  const payload = () => JSON.stringify({ hook_event_name: 'SessionStart', cwd: ws.project })

  beforeAll(async () => {
    await ensureBuilt()
    ws = createHookWorkspace()
    writeLedger(ws, { debt: 12, sessions: manualSessions([3, 3, 3, 3], new Date()) })
  }, 300_000)

  afterAll(() => ws?.dispose())

  it('reads a payload from a closed pipe and prints the snapshot', async () => {
    const run = await runHook(ws, 'session-start', payload())
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('# Agent Context — Auto-loaded')
    expect(run.stdout).toContain('CONSOLIDATION')
    // The commands it names run this install by absolute path, as the hook itself is run.
    const somnus = `"${process.execPath}" "${join(REPO_ROOT, 'bin', 'somnus.js')}"`
    expect(run.stdout).toContain(`\`${somnus} sleep start\``)
    expect(run.stdout).not.toMatch(/`somnus /)
  })

  it('with SOMNUS_SKIP_HOOKS=1 does nothing at all: no output, no stdin read, nothing booked', async () => {
    const before = JSON.stringify(readLedger(ws))
    const start = await runHook(ws, 'session-start', payload(), { SOMNUS_SKIP_HOOKS: '1' })
    expect(start).toMatchObject({ code: 0, stdout: '' })
    const stop = JSON.stringify({ session_id: 'skipped-session', cwd: ws.project })
    // Stdin left open for 20 s: the hook does not wait for it.
    const run = await runHook(
      ws,
      'stop',
      { open: stop, closeAfterMs: 20_000 },
      {
        SOMNUS_SKIP_HOOKS: '1',
      },
    )
    expect(run).toMatchObject({ code: 0, stdout: '' })
    expect(run.exitAfterMs).toBeLessThan(20_000)
    expect(JSON.stringify(readLedger(ws))).toBe(before)
  })

  it('takes stdin from a file, or runs with no stdin at all', async () => {
    const file = join(ws.dir, 'payload.json')
    writeFileSync(file, payload())
    const fromFile = await runHook(ws, 'session-start', { file })
    expect(fromFile.code).toBe(0)
    expect(fromFile.stdout).toContain('# Agent Context — Auto-loaded')
    const none = await runHook(ws, 'session-start', null)
    expect(none.code).toBe(0)
    expect(none.stdout).toContain('# Agent Context — Auto-loaded')
  })

  it('answers as soon as the payload is whole, even if stdin stays open', async () => {
    const run = await runHook(ws, 'session-start', { open: payload(), closeAfterMs: 8_000 })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('# Agent Context — Auto-loaded')
    expect(run.exitAfterMs).toBeLessThan(2_500)
  }, 20_000)

  it('gives up on an unfinished payload after 3 s and still answers', async () => {
    const run = await runHook(ws, 'session-start', {
      open: '{"hook_event_name": "Sess',
      closeAfterMs: 4_500,
    })
    expect(run.code).toBe(0)
    expect(run.outputAfterMs).toBeGreaterThanOrEqual(2_900)
    expect(run.outputAfterMs).toBeLessThan(4_400)
    expect(run.stdout).toContain('# Agent Context — Auto-loaded')
  }, 20_000)

  it('keeps a code cache per event in ~/.somnus/cache, and shrugs off a broken one', async () => {
    await runHook(ws, 'session-start', payload())
    const folder = join(ws.home, '.somnus', 'cache')
    const cache = readdirSync(folder).find((name) => name.endsWith('-session-start.bin'))
    expect(cache).toBeDefined()
    const path = join(folder, cache ?? '')
    writeFileSync(path, 'not a code cache')
    const run = await runHook(ws, 'session-start', payload())
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('# Agent Context — Auto-loaded')
    // V8 rejected the broken cache; the run compiled as usual and saved a good one.
    expect(readFileSync(path).length).toBeGreaterThan(10_000)
  })

  it('prints its usage for --help', async () => {
    const run = await runHook(ws, '--help', null)
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Usage: somnus hook <event>/)
    expect(run.stdout).toContain('session-start')
  })
})

describe('the hook entry with a stdin that never closes', () => {
  let ws: HookWorkspace
  const brainLog = () => readFileSync(join(ws.root, 'state', '.somnus-hook.log'), 'utf8')

  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  afterEach(() => ws?.dispose())

  it('exits once it has answered a whole payload, the session recorded', async () => {
    ws = createHookWorkspace()
    const payload = JSON.stringify({
      session_id: 'open-pipe',
      transcript_path: null,
      cwd: ws.project,
    })
    const run = await spawnHook(ws, 'stop', { text: payload, keepOpen: true })
    expect(run.code).toBe(0)
    expect(run.exitAfterMs).toBeLessThan(2_000)
    expect(readLedger(ws).sessions.map((session) => session.session_id)).toEqual(['open-pipe'])
  }, 40_000)

  it('gives up on a half payload after its stdin timeout, answers, logs it and exits 0', async () => {
    ws = createHookWorkspace()
    writeLedger(ws, { debt: 12, sessions: manualSessions([3, 3, 3, 3], new Date()) })
    const run = await spawnHook(ws, 'session-start', {
      text: '{"hook_event_name": "Sess',
      keepOpen: true,
    })
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('# Agent Context — Auto-loaded')
    expect(run.exitAfterMs).toBeGreaterThanOrEqual(2_900)
    expect(run.exitAfterMs).toBeLessThan(5_000)
    expect(brainLog()).toContain('stdin still open after 3000 ms')
    expect(run.stderr).toBe('')
  }, 40_000)
})
