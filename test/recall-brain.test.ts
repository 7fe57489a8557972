/**
 * Recall over a brain on disk: the same fact in a digest and a core file comes back once with
 * both places and every source; a hit whose line moved is shown where it is now; one whose text
 * is gone is never shown, even from an index that has not caught up; the CLI's filters and errors.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { createSomnus } from '../src/brain/create-somnus.ts'
import { runCliCaptured } from './support/run-cli-captured.ts'

const FACT = 'The billing export needs the EU VAT table loaded before the nightly job.'
let project: string
let env: Record<string, string>
const file = (path: string) => join(project, '_agent_context', path)

beforeEach(async () => {
  project = mkdtempSync(join(tmpdir(), 'somnus-recall-brain-'))
  env = { HOME: mkdtempSync(join(tmpdir(), 'somnus-recall-brain-home-')) }
  expect((await runCliCaptured(['init', project], { cwd: project, env })).code).toBe(0)
  const memory = readFileSync(file('core/2.memory.md'), 'utf8')
  writeFileSync(
    file('core/2.memory.md'),
    memory.replace(
      '## Known Issues\n',
      `## Known Issues\n\n- ${FACT} <!-- sources: session:aaaa1111, 0badc0de -->\n`,
    ),
  )
  mkdirSync(file('knowledge/sessions'), { recursive: true })
  writeFileSync(
    file('knowledge/sessions/2026-03-02-bbbb2222.md'),
    `---\nsession: bbbb2222-0000-4000-8000-000000000000\ndate: 2026-03-02\n---\n\n## Gotchas\n- ${FACT} <!-- src: 1234abcd -->\n- Unrelated: the CI cache key includes the lockfile hash.\n`,
  )
})

const recallJson = async (args: string[]) => {
  const run = await runCliCaptured(['recall', ...args, '--json'], { cwd: project, env })
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as {
    location: string
    also: string[]
    sources: string[]
    kind: string
    date: string | null
  }[]
}

describe('somnus recall on a brain', () => {
  it('folds one fact found in two files into one hit with both places and every source', async () => {
    const hits = await recallJson(['billing export VAT table'])
    const fact = hits.filter(
      (hit) => hit.location.includes('2.memory.md') || hit.location.includes('bbbb2222'),
    )
    expect(fact).toHaveLength(1)
    const [hit] = fact
    expect([hit?.location, ...(hit?.also ?? [])].sort()).toEqual(
      [
        expect.stringMatching(/^_agent_context\/core\/2\.memory\.md:\d+$/),
        '_agent_context/knowledge/sessions/2026-03-02-bbbb2222.md:7',
      ].sort(),
    )
    expect(hit?.sources).toEqual(
      expect.arrayContaining([
        'aaaa1111',
        '0badc0de',
        'bbbb2222-0000-4000-8000-000000000000',
        '1234abcd',
      ]),
    )
  })

  it('keeps to --in and --since, and refuses a bad value with the fix', async () => {
    const sessions = await recallJson(['billing export VAT table', '--in', 'sessions'])
    expect(sessions.map((hit) => hit.kind)).toEqual(['sessions'])
    expect(sessions[0]?.date).toBe('2026-03-02')
    expect(
      await recallJson(['billing export VAT', '--in', 'sessions', '--since', '2026-04-01']),
    ).toEqual([])
    const bad = await runCliCaptured(['recall', 'x', '--in', 'secrets'], { cwd: project, env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      '--in takes kinds from core, sessions, knowledge, patterns, transcripts',
    )
    const date = await runCliCaptured(['recall', 'x', '--since', '2026-02-30'], {
      cwd: project,
      env,
    })
    expect(date.code).toBe(2)
    expect(date.stderr).toContain('--since takes a day')
  })

  it('never shows a stale file:line: a moved line is shown where it is, a gone one not at all', async () => {
    expect((await runCliCaptured(['recall', 'billing'], { cwd: project, env })).code).toBe(0)
    const recall = await (await createSomnus({ cwd: project, env, warn: () => undefined })).recall()
    const digest = file('knowledge/sessions/2026-03-02-bbbb2222.md')
    const query = { text: 'CI cache key lockfile', limit: 3 }
    writeFileSync(
      digest,
      readFileSync(digest, 'utf8').replace(
        '## Gotchas\n',
        '## Gotchas\n- A new first line.\n- And a second.\n',
      ),
    )
    const moved = await recall.recall(query, undefined, { refresh: false })
    expect(moved[0]?.location).toBe('_agent_context/knowledge/sessions/2026-03-02-bbbb2222.md:10')
    writeFileSync(digest, readFileSync(digest, 'utf8').replace(/- Unrelated.*\n/, ''))
    const after = await recall.recall(query, undefined, { refresh: false })
    expect(after.filter((hit) => hit.text.includes('lockfile hash'))).toEqual([])
    expect(after.filter((hit) => hit.location.includes('bbbb2222'))).toEqual([])
  })
})
