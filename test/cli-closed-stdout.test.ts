/**
 * `somnus <cmd> --help | head`: the reader closes the pipe before the CLI has written everything.
 * The CLI must end quietly, with the exit code the command would have had (0 for help), not crash
 * on an unhandled EPIPE. A real pipe, closed early by a reader that exits at once.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

const project = mkdtempSync(join(tmpdir(), 'somnus-closed-stdout-'))

beforeAll(async () => {
  await ensureBuilt()
}, 300_000)

afterAll(() => rmSync(project, { recursive: true, force: true }))

/**
 * Runs `somnus <args>` with its stdout into `reader` (a shell command); returns the CLI's exit
 * code and its stderr (the reader's exit code is not the CLI's: PIPESTATUS gives the CLI's).
 */
function piped(args: string, reader: string): { code: number; stderr: string } {
  const script = `"${process.execPath}" "${SOMNUS_BIN}" ${args} 2>"$ERRORS" | ${reader}; echo "\${PIPESTATUS[0]}"`
  const errors = join(project, 'stderr.txt')
  const run = spawnSync('bash', ['-c', script], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: project, ERRORS: errors },
    encoding: 'utf8',
    timeout: 60_000,
  })
  const code = Number(run.stdout.trim().split('\n').at(-1))
  return { code, stderr: spawnSync('cat', [errors], { encoding: 'utf8' }).stdout }
}

describe('a closed stdout', () => {
  // `true` exits before Node has started, so every write of the CLI meets a closed pipe.
  for (const args of ['--help', 'sleep --help', 'transcript stats --help', 'snapshot --help']) {
    it(`somnus ${args} | (reader gone): exit 0, nothing on stderr`, () => {
      const run = piped(args, 'true')
      expect(run.stderr).not.toMatch(/EPIPE|Unhandled|Error/)
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
    })
  }

  it('somnus sleep --help | head -1: the first line reaches the reader, the CLI exits 0', () => {
    const run = piped('sleep --help', 'head -1 >/dev/null')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  })

  it('a command that fails still says why on stderr and keeps its exit code', () => {
    const run = piped('sleep status', 'true')
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/somnus init/)
    expect(run.stderr).not.toMatch(/EPIPE/)
  })
})
