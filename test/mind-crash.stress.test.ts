/**
 * Crash safety: a process that consolidates back to back is killed with SIGKILL at random moments,
 * again and again, on one creature folder. After every kill all files parse; at the end no dream is
 * written twice (dreams.jsonl ids, observations.md markers), every acknowledged message is in
 * conversation.jsonl exactly once, and a consolidation left half-written is finished by the next
 * process rather than redone.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMind } from '../src/mind/create-mind.ts'
import { REPO_ROOT } from './support/shared-data.ts'

const WORKER = join(REPO_ROOT, 'test/support/mind-worker.ts')
const KILLS = 30
const MAX_KILLS = 150

function readJsonLines(path: string): unknown[] {
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

/** Starts a churn worker; resolves once it has acknowledged `warmup` writes, with its acks so far. */
function startChurn(folder: string, worker: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', WORKER, 'churn', folder, String(worker)],
    { cwd: REPO_ROOT },
  )
  const acks: string[] = []
  let buffer = ''
  let ready: () => void = () => {}
  const started = new Promise<void>((resolve) => {
    ready = resolve
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString()
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) {
      if (line.startsWith('ACK ')) acks.push(line.slice(4))
      if (line === 'READY') ready()
    }
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return { child, acks, exited, started }
}

describe('kill -9 during consolidation', () => {
  it('leaves every file readable and appends nothing twice', { timeout: 600_000 }, async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'somnus-mind-kill-')), '.self')
    const acknowledged: string[] = []
    let pendingAfterKill = 0
    let commitsAfterKill = 0
    let kills = 0
    // At least KILLS kills, and on until three of them caught a consolidation half-done.
    for (let kill = 1; kill <= MAX_KILLS && (kill <= KILLS || pendingAfterKill < 3); kill += 1) {
      kills = kill
      const run = startChurn(folder, kill)
      // A cycle is 18 writes (~0.2 s) and a consolidation (~0.1 s): kills land in every phase.
      await Promise.race([run.started, run.exited])
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 1_500))
      run.child.kill('SIGKILL')
      await run.exited
      acknowledged.push(...run.acks)
      // Every file is whole enough to read: each JSON line parses, the state parses.
      readJsonLines(join(folder, 'conversation.jsonl'))
      readJsonLines(join(folder, 'dreams.jsonl'))
      const statePath = join(folder, 'mind-state.json')
      if (existsSync(statePath)) {
        const state = JSON.parse(readFileSync(statePath, 'utf8'))
        if (state.pending) pendingAfterKill += 1
        if (state.pending?.commit) commitsAfterKill += 1
      }
    }
    // A fresh process finishes whatever was left half-written (its first change replays the commit).
    const mind = createMind({ folder, config: { minDreamIntervalMs: 0 } })
    await mind.record({ role: 'system', content: 'after the kills' })
    await mind.sleep({ seconds: 60 })

    const dreams = readJsonLines(join(folder, 'dreams.jsonl')) as {
      id: string
      lines: [number, number] | null
    }[]
    const ids = dreams.map((dream) => dream.id)
    expect(new Set(ids).size).toBe(ids.length)
    const observations = readFileSync(join(folder, 'observations.md'), 'utf8')
    const markers = [...observations.matchAll(/<!-- dream (\S+) -->/g)].map((match) => match[1])
    expect(new Set(markers).size).toBe(markers.length)
    expect(markers.every((marker) => ids.includes(marker as string))).toBe(true)
    // Dreams never overlap: no line consolidated twice.
    const ranges = dreams.flatMap((dream) => (dream.lines ? [dream.lines] : []))
    for (const [index, range] of ranges.slice(1).entries()) {
      expect(range[0]).toBeGreaterThan((ranges[index] as [number, number])[1])
    }

    const conversation = readJsonLines(join(folder, 'conversation.jsonl')) as {
      content: string
      kind?: string
    }[]
    const counts = new Map<string, number>()
    // Wake messages quote recent observations: only the creature's own lines are counted.
    for (const entry of conversation.filter((line) => line.kind === undefined)) {
      const token = /w\d+-c\d+-[am]\d+/.exec(entry.content)?.[0]
      if (token) counts.set(token, (counts.get(token) ?? 0) + 1)
    }
    for (const token of acknowledged) expect(counts.get(token), token).toBe(1)
    expect([...counts.values()].every((count) => count === 1)).toBe(true)
    expect(dreams.length).toBeGreaterThan(3)
    process.stdout.write(
      `kill -9 x${kills}: ${acknowledged.length} acknowledged writes, ${dreams.length} dreams, ${pendingAfterKill} kills left a consolidation half-done (${commitsAfterKill} while writing its result)\n`,
    )
    expect(pendingAfterKill).toBeGreaterThan(0)
  })
})
