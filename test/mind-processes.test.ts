/**
 * Several processes acting on one creature folder at once: no action and no message is lost or
 * written twice, and every action is counted exactly once (in a dream or in the open cycle).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMind } from '../src/mind/create-mind.ts'
import { REPO_ROOT } from './support/shared-data.ts'

const WORKER = join(REPO_ROOT, 'test/support/mind-worker.ts')

/** Runs a worker to the end; resolves with its acknowledged tokens. */
function runWorker(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { cwd: REPO_ROOT })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString()
    })
    child.on('exit', (code) => {
      if (code !== 0 || !out.includes('END'))
        reject(new Error(`worker ${args.join(' ')} exited ${code}: ${err}`))
      else
        resolve(out.split('\n').flatMap((line) => (line.startsWith('ACK ') ? [line.slice(4)] : [])))
    })
  })
}

describe('four processes on one creature folder', () => {
  it('lose no message and no action, and count every action once', {
    timeout: 120_000,
  }, async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'somnus-mind-procs-')), '.self')
    const acknowledged = (
      await Promise.all(
        [1, 2, 3, 4].map((worker) => runWorker(['act', folder, String(worker), '30'])),
      )
    ).flat()
    expect(acknowledged).toHaveLength(240)

    const conversation = readFileSync(join(folder, 'conversation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    for (const token of acknowledged) {
      const holding = conversation.filter(
        (entry) => entry.content.includes(`${token} `) || entry.content.endsWith(token),
      )
      expect(holding, token).toHaveLength(1)
    }
    expect(conversation.filter((entry) => entry.role === 'tool')).toHaveLength(120)

    const dreams = readFileSync(join(folder, 'dreams.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(new Set(dreams.map((dream) => dream.id)).size).toBe(dreams.length)
    expect(dreams.length).toBeGreaterThan(0)
    // Each dream consolidated lines after the previous one's: no line twice.
    const ranges = dreams.map((dream) => dream.lines as [number, number])
    for (const [index, range] of ranges.slice(1).entries()) {
      expect(range[0]).toBeGreaterThan((ranges[index] as [number, number])[1])
    }
    const status = await createMind({ folder }).status()
    const counted = dreams.reduce((sum, dream) => sum + dream.actions, 0) + status.actions
    expect(counted).toBe(120)
    const observations = readFileSync(join(folder, 'observations.md'), 'utf8')
    for (const dream of dreams)
      expect(observations.split(`<!-- dream ${dream.id} -->`)).toHaveLength(2)
  })
})
