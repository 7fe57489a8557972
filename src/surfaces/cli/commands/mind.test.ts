import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../../../../test/support/run-cli-captured.ts'

const root = mkdtempSync(join(tmpdir(), 'somnus-mind-cli-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const run = (cwd: string, args: string[], stdin = '', env: Record<string, string> = {}) =>
  runCliCaptured(['mind', ...args], { cwd, stdin, env })
const json = async (cwd: string, args: string[], stdin = '') => {
  const result = await run(cwd, [...args, '--json'], stdin)
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  return JSON.parse(result.stdout)
}

describe('somnus mind', () => {
  it('runs a whole cycle from a shell: record, actions, sleep, wake, status, observations, dreams, recall', async () => {
    const cwd = mkdtempSync(join(root, 'cycle-'))
    expect(
      await json(cwd, ['record', 'user', 'Ship', 'the', 'janee', 'release', 'by', 'Friday']),
    ).toEqual({ line: 1 })
    expect(
      await json(cwd, ['record', 'assistant', '-'], 'I will start with the failing auth tests.\n'),
    ).toEqual({ line: 2 })
    for (let index = 1; index <= 6; index += 1) {
      const action = await json(cwd, [
        'action',
        'bash',
        `npm test -> ${index} failing in auth.spec.ts`,
      ])
      expect(action).toMatchObject({ actions: index, warning: null, forcedSleep: null })
    }
    const status = await json(cwd, ['status'])
    expect(status).toMatchObject({
      location: '.self',
      actions: 6,
      messages: 2,
      fatigue: 'rested',
      dreams: 0,
      deep_sleep_in: 10,
      sleeping: null,
    })

    const sleep = await json(cwd, ['sleep', '300'])
    expect(sleep).toMatchObject({
      consolidation: 'full',
      deep: false,
      sleep: { seconds: 300, reason: 'voluntary' },
    })
    expect(sleep.dream.observations).toBeGreaterThan(0)
    const again = await run(cwd, ['sleep', '300'])
    expect(again.stdout).toMatch(/^Sleeping 300 s, until .*\. No consolidation: /)

    const wake = await run(cwd, ['wake'])
    expect(wake.stdout).toMatch(
      /^You woke up at \S+Z after sleeping \d+s\. This is cycle 2\.\n\nStanding orders and commitments \(until done or revoked\):\n- \S+ RED \d\d:\d\d user: Ship the janee release by Friday\n/,
    )
    expect(wake.stdout).toContain('\nDuring sleep you reflected:\n')
    expect(wake.stdout).toContain('Full history: .self/conversation.jsonl')

    const observations = await json(cwd, ['observations'])
    expect(observations.length).toBe(sleep.dream.observations)
    expect(observations[0]).toMatchObject({ dream: sleep.dream.id, sources: [expect.any(Number)] })
    const text = await run(cwd, ['observations'])
    expect(text.stdout).toMatch(
      /^# Observations\n\n## \d{4}-\d{2}-\d{2}\n\n<!-- dream dream_[0-9a-f]{8} -->\n(RED|YLW|GRN) \d\d:\d\d /,
    )
    const red = await json(cwd, ['observations', '-p', 'red'])
    expect(red.every((item: { priority: string }) => item.priority === 'RED')).toBe(true)

    const dreams = await json(cwd, ['dreams', '-n', '5'])
    expect(dreams).toHaveLength(1)
    expect((await run(cwd, ['dreams'])).stdout).toMatch(/ full, 6 actions, \d+ observations\n {2}/)

    const hits = await json(cwd, ['recall', 'janee', 'release'])
    expect(hits[0]).toMatchObject({ file: 'conversation.jsonl', line: 1 })
    expect((await run(cwd, ['recall', 'auth', 'tests'])).stdout).toMatch(
      /^(conversation\.jsonl|observations\.md|dreams\.jsonl):\d+ {2}/,
    )
    expect((await run(cwd, ['recall', 'zebra'])).stdout).toBe('No matches.\n')

    const context = await json(cwd, ['context'])
    expect(context.messages.at(-1).entry.kind).toBe('wake')
    const files = readFileSync(join(cwd, '.self/conversation.jsonl'), 'utf8').trim().split('\n')
    expect(files).toHaveLength(9)
  })

  it('takes its folder from --dir or SOMNUS_MIND_DIR, and its settings from mind.json', async () => {
    const cwd = mkdtempSync(join(root, 'dir-'))
    await run(cwd, ['--dir', 'creature', 'record', 'user', 'hello there friend'])
    expect(readFileSync(join(cwd, 'creature/conversation.jsonl'), 'utf8')).toContain(
      'hello there friend',
    )
    await run(cwd, ['record', 'user', 'from the environment'], '', { SOMNUS_MIND_DIR: 'other' })
    expect(readFileSync(join(cwd, 'other/conversation.jsonl'), 'utf8')).toContain(
      'from the environment',
    )
    writeFileSync(
      join(cwd, 'creature/mind.json'),
      JSON.stringify({ fatigueWarning: 1, fatigueLimit: 2 }),
    )
    const first = await json(cwd, ['--dir', 'creature', 'action', 'bash', 'ls -> a b'])
    expect(first.warning).toMatch(/Start wrapping up/)
    const second = await run(cwd, ['--dir', 'creature', 'action', 'bash', 'ls -> a b c'])
    expect(second.stdout).toMatch(
      /^Action 2\/2\.\nExhausted: Sleeping 300 s, until .*\nWake with: somnus mind wake\n$/,
    )
  })

  it('refuses bad input with a usage error and the fix', async () => {
    const cwd = mkdtempSync(join(root, 'bad-'))
    expect(await run(cwd, ['record', 'robot', 'hi'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Role must be one of user, assistant, system/),
    })
    expect(await run(cwd, ['record', 'user'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Nothing to record/),
    })
    expect(await run(cwd, ['sleep', 'soon'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/must be a number/),
    })
    expect(await run(cwd, ['sleep', '1'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/between 2 and 86400/),
    })
    expect(await run(cwd, ['observations', '-p', 'BLUE'])).toMatchObject({ code: 2 })
    expect(await run(cwd, ['dreams', '-n', '0'])).toMatchObject({ code: 2 })
    expect(await run(cwd, ['--model', 'gemini', 'status'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Unknown consolidation model "gemini"/),
    })
    mkdirSync(join(cwd, '.self'))
    writeFileSync(join(cwd, '.self/mind.json'), '{"fatigueLimit": "lots"}')
    expect(await run(cwd, ['status'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/"fatigueLimit" must be a number/),
    })
  })

  it('documents every verb with examples', async () => {
    const help = await run(root, ['--help'])
    for (const verb of [
      'record',
      'action',
      'sleep',
      'wake',
      'status',
      'observations',
      'dreams',
      'recall',
      'context',
    ]) {
      expect(help.stdout).toContain(verb)
      const verbHelp = await run(root, [verb, '--help'])
      expect(verbHelp.stdout).toMatch(/Example/)
      expect(verbHelp.stdout).toContain('--json')
    }
  })
})
