/**
 * Issue 18 item 8: the detached `somnus patterns encode` a hook starts (PreCompact, SessionEnd, some
 * Stops) is given the hook input's transcript_path, which is attacker text. Run as the hooks run it
 * (the built CLI, `--hook-log`, the arguments pattern-jobs.ts builds), it must refuse /dev/zero, a
 * FIFO, a file over the size cap, a file outside Claude Code's projects folder and the project,
 * and a link from inside to outside: each ends at once, exit 0, one line in the hook log, nothing
 * encoded. A real transcript in the projects folder is still encoded.
 */
import { spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { setTranscriptClock, user } from '../support/transcript-lines.ts'

let base: string
let home: string
let project: string
let projects: string
let log: string

beforeAll(async () => {
  await ensureBuilt()
  base = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-detached-encode-')))
  home = join(base, 'home')
  project = join(base, 'project')
  projects = join(home, '.claude', 'projects', '-project')
  mkdirSync(join(project, '.git'), { recursive: true })
  mkdirSync(join(project, '_agent_context', 'state'), { recursive: true })
  mkdirSync(projects, { recursive: true })
  log = join(project, '_agent_context', 'state', '.somnus-hook.log')
}, 120_000)

afterAll(() => rmSync(base, { recursive: true, force: true }))

/** A small real transcript. */
function transcriptText(): string {
  setTranscriptClock('2026-03-01T10:00:00.000Z')
  return `${user('Always run the linter before committing.', { uuid: 'u-1' })}\n`
}

/** `somnus patterns encode <path>` exactly as a hook starts it; killed if it runs over 60 s. */
function encodeAsHook(path: string) {
  const child = spawn(
    process.execPath,
    [
      SOMNUS_BIN,
      'patterns',
      'encode',
      path,
      '--session',
      's-1',
      '--project',
      project,
      '--hook-log',
      log,
    ],
    { cwd: project, env: { PATH: process.env.PATH ?? '', HOME: home }, stdio: 'ignore' },
  )
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
  return new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      clearTimeout(guard)
      resolve({ code, signal })
    }),
  )
}

const logText = () => (existsSync(log) ? readFileSync(log, 'utf8') : '')

describe('the detached patterns encode checks the transcript path as the hooks do', () => {
  const refused: Array<[string, () => string, RegExp]> = [
    ['/dev/zero', () => '/dev/zero', /\/dev\/zero/],
    [
      'a FIFO in the projects folder',
      () => {
        const fifo = join(projects, 'fifo.jsonl')
        spawnSyncMkfifo(fifo)
        return fifo
      },
      /fifo\.jsonl: not a regular file/,
    ],
    [
      'a file over the size cap',
      () => {
        const big = join(projects, 'big.jsonl')
        writeFileSync(big, transcriptText())
        truncateSync(big, 60 * 1024 * 1024)
        return big
      },
      /big\.jsonl is 62914560 bytes, over the 52428800-byte limit/,
    ],
    [
      'a transcript outside the projects folder and the project',
      () => {
        const outside = join(base, 'elsewhere.jsonl')
        writeFileSync(outside, transcriptText())
        return outside
      },
      /Refusing the transcript .*elsewhere\.jsonl/,
    ],
    [
      'a link in the projects folder to a file outside',
      () => {
        const outside = join(base, 'target.jsonl')
        writeFileSync(outside, transcriptText())
        const link = join(projects, 'link.jsonl')
        symlinkSync(outside, link)
        return link
      },
      /Refusing the transcript .*link\.jsonl \(.*target\.jsonl\)/,
    ],
  ]
  for (const [name, make, logged] of refused) {
    it(`refuses ${name}: exit 0, the reason in the hook log, nothing encoded`, async () => {
      const path = make()
      const before = logText()
      const ended = await encodeAsHook(path)
      expect(ended).toEqual({ code: 0, signal: null })
      const added = logText().slice(before.length)
      expect(added).toMatch(/patterns encode failed: /)
      expect(added).toMatch(logged)
    }, 90_000)
  }

  it('still encodes a real transcript in the projects folder', async () => {
    const transcript = join(projects, 's-1.jsonl')
    writeFileSync(transcript, transcriptText())
    const before = logText()
    expect(await encodeAsHook(transcript)).toEqual({ code: 0, signal: null })
    expect(logText().slice(before.length)).toBe('')
  }, 90_000)
})

/** mkfifo(1): Node has no call for it. */
function spawnSyncMkfifo(path: string): void {
  const { execFileSync } = process.getBuiltinModule('node:child_process')
  execFileSync('mkfifo', [path])
}
