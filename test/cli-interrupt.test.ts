/**
 * Ctrl-C during a model call: `somnus sleep run` hands the CLI's interrupt signal to the model, so
 * the first SIGINT stops the request, the run exits 130 and the brain is left as it was.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'
import { type StandInServer, startStandInServer } from './support/stand-in-server.ts'

let server: StandInServer
/** Called when the model request reaches the stand-in, which then never answers it. */
let requestArrived: () => void = () => {}

beforeAll(async () => {
  await ensureBuilt()
  server = await startStandInServer(() => requestArrived())
}, 120_000)

afterAll(async () => {
  await server.close()
})

describe('somnus sleep run interrupted by Ctrl-C', () => {
  it('stops the model call, exits 130 and leaves the ledger and the files unchanged', async () => {
    const project = mkdtempSync(join(tmpdir(), 'somnus-interrupt-'))
    try {
      const env = {
        PATH: process.env.PATH,
        HOME: project,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
      }
      const cli = (...args: string[]) =>
        execFileSync(process.execPath, [SOMNUS_BIN, ...args], { cwd: project, env })
      cli('init', '--plugin')
      cli('sleep', 'add', '3', 'Refactored the login flow; the session cookie is now httpOnly')
      cli('bookmark', 'add', 'Sessions expire after 30 minutes of inactivity', '-s', '3')
      const ledger = join(project, '_agent_context', 'state', '.sleep.json')
      const memory = join(project, '_agent_context', 'core', '2.memory.md')
      const before = { ledger: readFileSync(ledger, 'utf8'), memory: readFileSync(memory, 'utf8') }

      const arrived = new Promise<void>((resolve) => {
        requestArrived = resolve
      })
      const child = spawn(
        process.execPath,
        [SOMNUS_BIN, 'sleep', 'run', '--model', 'anthropic:claude-test'],
        { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8')
      })
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
      await arrived
      child.kill('SIGINT')
      const code = await exited

      expect(code).toBe(130)
      expect(stderr).toMatch(/interrupted/)
      expect(stderr).toMatch(/cancel|abort/i)
      expect(readFileSync(ledger, 'utf8')).toBe(before.ledger)
      expect(readFileSync(memory, 'utf8')).toBe(before.memory)
      expect(existsSync(join(project, '_agent_context', 'state', '.sleep-run.json'))).toBe(false)
    } finally {
      rmSync(project, { recursive: true, force: true })
    }
  }, 60_000)
})
