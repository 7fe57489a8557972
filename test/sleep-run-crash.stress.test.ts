/**
 * kill -9 of a real `somnus sleep run` process at random moments: the brain is always either as
 * before or as after, except while a committed journal is waiting, and the next `sleep run`
 * then finishes it to exactly the "after" state.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { brainFiles } from './support/brain-snapshot.ts'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'
import { buildBrain } from './support/sleep-run-brain.ts'

const KILLS = 16

function sleepRunEnv(root: string): NodeJS.ProcessEnv {
  return { ...process.env, SOMNUS_CONTEXT_DIR: root, SOMNUS_QUIET_SKIPS: '1' }
}

function finishRun(root: string): void {
  execFileSync(process.execPath, [SOMNUS_BIN, 'sleep', 'run'], {
    env: sleepRunEnv(root),
    stdio: 'pipe',
  })
}

describe('sleep run killed with SIGKILL', () => {
  let template: string
  let before: Record<string, string>
  let after: Record<string, string>
  let fullRunMs = 0

  beforeAll(async () => {
    await ensureBuilt()
    template = mkdtempSync(join(tmpdir(), 'somnus-crash-template-'))
    await buildBrain(template)
    // Copies keep the template's folder name inside their files, so compare copy with copy.
    before = brainFiles(copyOf(template))
    const reference = copyOf(template)
    const started = Date.now()
    finishRun(reference)
    fullRunMs = Date.now() - started
    after = brainFiles(reference)
    expect(after).not.toEqual(before)
    expect(after['core/2.memory.md']).toContain('<!-- sources: bm_critical;')
  }, 180_000)

  function copyOf(project: string): string {
    const copy = mkdtempSync(join(tmpdir(), 'somnus-crash-'))
    cpSync(project, copy, { recursive: true })
    return join(copy, '_agent_context')
  }

  it(`leaves before, after, or a journal that the next run completes (${KILLS} kills)`, async () => {
    const seen = { before: 0, after: 0, journal: 0 }
    for (let attempt = 0; attempt < KILLS; attempt += 1) {
      const root = copyOf(template)
      const child: ChildProcess = spawn(process.execPath, [SOMNUS_BIN, 'sleep', 'run'], {
        env: sleepRunEnv(root),
        stdio: 'ignore',
      })
      const exited = new Promise((resolve) => child.once('close', resolve))
      if (attempt % 2 === 0) {
        // Even attempts: a random moment of the run, start-up and reading included.
        await sleepMs(Math.round(fullRunMs * Math.random() * 1.2))
      } else {
        // Odd attempts: just after the commit point, while the files are being written.
        const journal = join(root, 'state/.sleep-run.json')
        const deadline = Date.now() + fullRunMs * 5
        while (!existsSync(journal) && child.exitCode === null && Date.now() < deadline)
          await sleepMs(1)
        await sleepMs(Math.floor(Math.random() * 4))
      }
      child.kill('SIGKILL')
      await exited

      const files = brainFiles(root)
      if (existsSync(join(root, 'state/.sleep-run.json'))) seen.journal += 1
      else if (JSON.stringify(files) === JSON.stringify(before)) seen.before += 1
      else {
        expect(files, `attempt ${attempt}: neither before nor after, and no journal`).toEqual(after)
        seen.after += 1
      }
      finishRun(root)
      expect(brainFiles(root), `attempt ${attempt}: after recovery`).toEqual(after)
    }
    expect(seen.before + seen.after + seen.journal).toBe(KILLS)
    console.info(
      `[sleep run kill -9] ${JSON.stringify(seen)} over ${KILLS} kills; a full run takes ${fullRunMs} ms`,
    )
  }, 300_000)
})

function sleepMs(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}
