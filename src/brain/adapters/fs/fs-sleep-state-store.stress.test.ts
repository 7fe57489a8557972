/**
 * The fs sleep state store under real separate processes: 50 writers at once, and writers killed
 * with SIGKILL mid-write. Slow, so it runs in the `stress` Vitest project.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeStateDir, storeAt } from '../../../../test/support/ledger-store.ts'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import { SleepStateSchema } from '../../core/sleep-state.ts'
import { SLEEP_STATE_FILE } from './fs-sleep-state-store.ts'

const WRITER = join(REPO_ROOT, 'test/support/ledger-writer.ts')

function startWriter(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk)
  })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

/** Resolves once the child has printed `text` on stdout. */
function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = ''
    child.stdout?.on('data', (chunk) => {
      seen += String(chunk)
      if (seen.includes(text)) resolve()
    })
    child.on('close', () => reject(new Error(`writer exited before printing "${text}"`)))
  })
}

describe('fs sleep state store: separate processes', () => {
  it('loses no update when 50 processes each add one session at once', async () => {
    const stateDir = await makeStateDir()
    const count = 50
    const scores = Array.from({ length: count }, (_, index) => (index % 3) + 1)
    const results = await Promise.all(
      scores.map((score, index) =>
        exitOf(startWriter(['once', stateDir, `p${index}`, String(score)])),
      ),
    )
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' })
    const state = await storeAt(stateDir).read()
    expect(state.sessions).toHaveLength(count)
    expect(new Set(state.sessions.map((session) => session.session_id)).size).toBe(count)
    expect(state.debt).toBe(scores.reduce((sum, score) => sum + score, 0))
  }, 180_000)

  it('never leaves a truncated ledger when writers are killed with SIGKILL mid-write', async () => {
    const staleMs = 2_000
    const sessions = 10
    // Three folders in parallel, ten kills each: 30 kills in a third of the time.
    const lanes = await Promise.all([0, 1, 2].map(() => makeStateDir()))
    const checkParses = async (stateDir: string) => {
      const text = await readFile(join(stateDir, SLEEP_STATE_FILE), 'utf8').catch(() => null)
      if (text === null) return
      const parsed = SleepStateSchema.safeParse(JSON.parse(text))
      expect(parsed.success).toBe(true)
      expect(parsed.data?.sessions).toHaveLength(sessions)
    }
    await Promise.all(
      lanes.map(async (stateDir) => {
        for (let round = 0; round < 10; round += 1) {
          const writer = startWriter(['loop', stateDir, String(sessions), '500000'], {
            SOMNUS_TEST_STALE_MS: String(staleMs),
          })
          const exited = exitOf(writer)
          // Wait for a first complete write (after taking over the dead writer's lock), then
          // kill at a random moment of the next ones.
          await printed(writer, 'wrote 1\n')
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 150))
          writer.kill('SIGKILL')
          await exited
          await checkParses(stateDir)
        }
      }),
    )
    for (const stateDir of lanes) {
      const started = Date.now()
      const store = storeAt(stateDir, [], staleMs)
      await store.update((state) => ({ state: { ...state, debt: 12_345 }, result: null }))
      expect(Date.now() - started).toBeLessThan(staleMs + 2_000)
      expect((await store.read()).debt).toBe(12_345)
      // The killed writers' temporary files are swept by that update, under the lock.
      expect((await readdir(stateDir)).filter((name) => /\.\d+\.\d+\./.test(name))).toEqual([])
    }
  }, 240_000)
})
