/**
 * Issue 18 item 8: `somnus summarize` on a big input (about 20 MB: half a minute of computing on a
 * 2-core machine) is stopped by SIGINT and by SIGTERM while it computes, as a user's Ctrl-C or a
 * supervisor's stop would: the process ends by that signal (shells report 130 and 143), printing no
 * summary and leaving no file behind.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

let folder: string
let input: string

beforeAll(async () => {
  await ensureBuilt()
  folder = mkdtempSync(join(tmpdir(), 'somnus-summarize-interrupt-'))
  const words =
    'the deploy failed because the pool starved so Dana moved ingest to batched inserts on Tuesday after measuring p99'.split(
      ' ',
    )
  const lines: string[] = []
  for (let index = 0; index < 280_000; index += 1) {
    const line = Array.from({ length: 12 }, (_, at) => words[(index * 7 + at * 13) % words.length])
    lines.push(`${line.join(' ')} ${index}.`)
    if (index % 5 === 4) lines.push('')
  }
  input = join(folder, 'session.txt')
  writeFileSync(input, lines.join('\n'))
}, 120_000)

afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Starts `somnus summarize <input>`, sends `signal` once it is computing, and reports the end. */
function interrupted(signal: 'SIGINT' | 'SIGTERM') {
  const child = spawn(process.execPath, [SOMNUS_BIN, 'summarize', input, '--ratio', '0.01'], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', HOME: folder },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  // The file is read and the summarizer running well before it could finish (tens of seconds).
  const timer = setTimeout(() => child.kill(signal), 2_000)
  return new Promise<{ code: number | null; signal: string | null; stdout: string }>((resolve) =>
    child.on('exit', (code, ended) => {
      clearTimeout(timer)
      resolve({ code, signal: ended, stdout })
    }),
  )
}

describe('somnus summarize stopped while it computes', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`ends on ${signal} with no summary printed and no file left`, async () => {
      const before = readdirSync(folder)
      const ended = await interrupted(signal)
      // Ended by the signal itself (a shell's $? is 128 + its number), or an exit code saying so.
      const status = ended.code ?? 128 + (ended.signal === 'SIGINT' ? 2 : 15)
      expect(status).toBe(signal === 'SIGINT' ? 130 : 143)
      expect(ended.stdout).toBe('')
      expect(readdirSync(folder)).toEqual(before)
    }, 120_000)
  }
})
