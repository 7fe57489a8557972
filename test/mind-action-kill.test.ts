/**
 * kill -9 in the middle of `mind action`, on a real folder: a process that acts in a loop is
 * killed at random moments, again and again. Whatever moment the kill hit, the next process
 * counts every logged action (logged = counted) and no temporary file is left in the folder.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMind } from '../src/mind/create-mind.ts'
import { REPO_ROOT } from './support/shared-data.ts'

const WORKER = join(REPO_ROOT, 'test/support/mind-worker.ts')
const KILLS = 6

function toolLines(folder: string): number {
  return readFileSync(join(folder, 'conversation.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => {
      try {
        return JSON.parse(line).role === 'tool'
      } catch {
        return false
      }
    }).length
}

async function actThenDie(folder: string, worker: number): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', WORKER, 'tally', folder, String(worker)],
    { cwd: REPO_ROOT },
  )
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  let acks = 0
  const acting = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      acks += chunk.toString().split('ACK ').length - 1
      if (acks >= 3) resolve()
    })
  })
  await Promise.race([acting, exited])
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 250))
  child.kill('SIGKILL')
  await exited
}

describe('kill -9 during mind action', () => {
  it('counts every logged action and sweeps temporary files', { timeout: 300_000 }, async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'somnus-mind-action-kill-')), '.self')
    const config = { fatigueWarning: 1_000_000, fatigueLimit: 1_000_000 }
    let behind = 0
    for (let kill = 1; kill <= KILLS; kill += 1) {
      await actThenDie(folder, kill)
      const state = JSON.parse(readFileSync(join(folder, 'mind-state.json'), 'utf8'))
      if (state.actionsSinceDream !== toolLines(folder)) behind += 1
      // The next process (any change) settles the count.
      await createMind({ folder, config }).record({ role: 'system', content: `kill ${kill}` })
      const settled = JSON.parse(readFileSync(join(folder, 'mind-state.json'), 'utf8'))
      expect(settled.actionsSinceDream, `after kill ${kill}`).toBe(toolLines(folder))
      expect(
        readdirSync(folder).filter((name) => /\.\d+\.\d+\.[a-z0-9]+$/.test(name)),
        `after kill ${kill}`,
      ).toEqual([])
    }
    const status = await createMind({ folder, config }).status()
    expect(status.actions).toBe(toolLines(folder))
    process.stdout.write(
      `kill -9 mid-action x${KILLS}: ${behind} kills left logged > counted; all settled, ${status.actions} actions\n`,
    )
  })
})
