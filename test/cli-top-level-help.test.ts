/**
 * The built CLI lists its nouns from summaries taken at build time (scripts/bundle-cli.mjs), so
 * `somnus --help` loads no command module: what it prints must be what loading them all prints.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'
import { runCliCaptured } from './support/run-cli-captured.ts'

describe('the built CLI without a known noun', () => {
  beforeAll(ensureBuilt, 300_000)
  const cwd = mkdtempSync(join(tmpdir(), 'somnus-help-'))
  // A HOME of its own: the built CLI keeps its code cache there.
  const env = { PATH: process.env.PATH, HOME: cwd }

  it.each([
    [['--help']],
    [[]],
    [['help']],
    [['help', 'sleep']],
    [['sleep', '--help']],
    [['-v']],
    [['slep']],
    [['--no-such-option']],
  ])('somnus %j prints what the source prints with every command loaded', async (args) => {
    const source = await runCliCaptured(args, { cwd })
    const built = spawnSync(process.execPath, [SOMNUS_BIN, ...args], { cwd, encoding: 'utf8', env })
    expect(built.stdout).toBe(source.stdout)
    expect(built.stderr).toBe(source.stderr)
    expect(built.status).toBe(source.code)
  })

  it('lists every noun, each with its own description', async () => {
    const built = spawnSync(process.execPath, [SOMNUS_BIN, '--help'], {
      cwd,
      encoding: 'utf8',
      env,
    })
    for (const noun of ['sleep', 'bookmark', 'transcript', 'summarize', 'serve', 'mind'])
      expect(built.stdout).toMatch(new RegExp(`\\n  ${noun}\\b.*\\S`))
  })
})
