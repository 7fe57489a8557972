import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../../../../test/support/run-cli-captured.ts'
import { countTokens } from '../../../engine/core/tokens.ts'

const folder = mkdtempSync(join(tmpdir(), 'somnus-summarize-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Runs `somnus <args>` in-process from a folder with no brain, `stdin` piped in. */
const run = (args: string[], stdin = '', env: Record<string, string | undefined> = {}) =>
  runCliCaptured(args, { cwd: folder, stdin, env })

const DIALOGUE = [
  'Ann: Hi Bob! How are you doing today?',
  'Bob: Hey Ann! Pretty good, thanks. Haha, busy week.',
  'Ann: Same here, haha! So much going on.',
  'Bob: We decided to move the launch to Thursday, 14 March, at 10:00.',
  'Ann: Oh wow, okay! Thanks for telling me.',
  'Bob: Also, the budget is $12,000 and Priya owns the rollout.',
  'Ann: Great, sounds good! Talk later!',
  'Bob: Bye! Take care!',
].join('\n')

describe('somnus summarize', () => {
  it('summarizes stdin within a ratio, keeping the fact lines', async () => {
    const result = await run(['summarize', '--ratio', '0.5'], DIALOGUE)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      'Bob: We decided to move the launch to Thursday, 14 March, at 10:00.',
    )
    expect(result.stdout).toContain('$12,000')
    expect(result.stdout).not.toMatch(/Haha|Bye/)
    expect(countTokens(result.stdout.trimEnd())).toBeLessThanOrEqual(
      Math.floor(countTokens(DIALOGUE) / 2),
    )
  })

  it('reads a file and reports tokens, budget and source lines with --json', async () => {
    writeFileSync(join(folder, 'chat.txt'), DIALOGUE)
    const result = await run(['summarize', 'chat.txt', '--budget', '40', '--json'])
    expect(result.code).toBe(0)
    const json = JSON.parse(result.stdout)
    expect(json).toMatchObject({
      model: 'extractive',
      tokens_before: countTokens(DIALOGUE),
      budget: 40,
    })
    expect(json.tokens_after).toBe(countTokens(json.summary))
    expect(json.tokens_after).toBeLessThanOrEqual(40)
    expect(json.sources).toContainEqual({
      id: 'L4',
      line: 4,
      text: 'Bob: We decided to move the launch to Thursday, 14 March, at 10:00.',
    })
  })

  it('returns the text unchanged when the ratio is 1', async () => {
    const result = await run(['summarize', '-', '--ratio', '1'], DIALOGUE)
    expect(result.stdout).toBe(`${DIALOGUE}\n`)
  })

  it('wants exactly one of --budget and --ratio, each in range (exit 2)', async () => {
    for (const args of [
      [],
      ['--budget', '10', '--ratio', '0.5'],
      ['--ratio', '0'],
      ['--ratio', '1.5'],
      ['--budget', 'many'],
    ]) {
      const result = await run(['summarize', ...args], DIALOGUE)
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(/--budget|--ratio/)
    }
  })

  it('says clearly when the input is empty or the file is missing (exit 1)', async () => {
    const empty = await run(['summarize', '--budget', '10'], '  \n')
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain('Nothing to summarize')
    const missing = await run(['summarize', 'nope.txt', '--budget', '10'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No such file: nope.txt')
  })

  it('names an unknown model and the forms it accepts', async () => {
    const result = await run(['summarize', '--budget', '10', '--model', 'gpt-imaginary'], DIALOGUE)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/Unknown model "gpt-imaginary".*extractive/)
  })
})
