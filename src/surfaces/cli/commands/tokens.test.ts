import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../../../../test/support/run-cli-captured.ts'
import { countTokens } from '../../../engine/core/tokens.ts'

const folder = mkdtempSync(join(tmpdir(), 'somnus-tokens-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const run = (args: string[], stdin = '') => runCliCaptured(args, { cwd: folder, stdin })

const TEXT = 'Somnus counts tokens with o200k.\nÜnïcödé and emoji 🐢 count too.\n'

describe('somnus tokens', () => {
  it('prints the token count of a file', async () => {
    writeFileSync(join(folder, 'notes.md'), TEXT)
    const result = await run(['tokens', 'notes.md'])
    expect(result).toEqual({ code: 0, stdout: `${countTokens(TEXT)}\n`, stderr: '' })
  })

  it('counts stdin for - or no file, with chars (code points) and lines in --json', async () => {
    const result = await run(['tokens', '--json'], TEXT)
    expect(JSON.parse(result.stdout)).toEqual({
      tokens: countTokens(TEXT),
      chars: [...TEXT].length,
      lines: 2,
    })
    expect((await run(['tokens', '-'], 'hello')).stdout).toBe(`${countTokens('hello')}\n`)
  })

  it('counts empty input as zero tokens, zero lines', async () => {
    expect(JSON.parse((await run(['tokens', '--json'], '')).stdout)).toEqual({
      tokens: 0,
      chars: 0,
      lines: 0,
    })
  })

  it('names a missing file (exit 1)', async () => {
    const result = await run(['tokens', 'missing.md'])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('No such file: missing.md')
  })
})
