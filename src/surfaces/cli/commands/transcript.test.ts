import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../../../../test/support/shared-data.ts'
import {
  analyzeSession,
  analyzeTranscriptFile,
} from '../../../engine/adapters/fs/transcript-files.ts'
import { runCli } from '../run-cli.ts'

const scratch = mkdtempSync(join(tmpdir(), 'somnus-transcript-cli-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const home = join(scratch, 'home')
const project = join(scratch, 'project')
const root = join(project, '_agent_context')
mkdirSync(join(root, 'state'), { recursive: true })
mkdirSync(join(scratch, 'bare'), { recursive: true })

/** Runs `somnus <args>` in-process; `brain: false` runs from a folder without a context root. */
async function somnus(args: string[], options: { brain?: boolean } = {}) {
  let stdout = ''
  let stderr = ''
  const withBrain = options.brain !== false
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    readStdin: async () => '',
    cwd: withBrain ? project : join(scratch, 'bare'),
    env: withBrain ? { HOME: home, SOMNUS_CONTEXT_DIR: root } : { HOME: home },
  })
  return { code, stdout, stderr }
}

const session = '4d5611e5-241a-462a-8d15-5122611a9569'

describe('somnus transcript', () => {
  it('fails with exit 1, naming the path and where transcripts live, when the file is missing', async () => {
    const missing = join(scratch, 'gone.jsonl')
    const run = await somnus(['transcript', 'stats', missing])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(missing)
    expect(run.stderr).toContain('~/.claude/projects/')
    const unknown = await somnus(['transcript', 'distill', 'no-such-session'], { brain: false })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('No transcript for session no-such-session')
  })

  it('rejects a --since that is not a date as a usage error', async () => {
    const path = join(scratch, 'tiny.jsonl')
    writeFileSync(path, '{"type":"user","message":{"content":"hello there"}}\n')
    const run = await somnus(['transcript', 'distill', path, '--since', 'last week'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('is not a date')
  })
})

describe.skipIf(!HAS_SHARED)('somnus transcript on real sessions', () => {
  const main = join(TRANSCRIPTS_DIR, `${session}.jsonl`)

  it('stats prints a table, and --json the analysis with its files', async () => {
    const expected = await analyzeSession(main, {})
    if (!('analysis' in expected)) throw new Error('expected an analysis')
    const table = await somnus(['transcript', 'stats', main])
    expect(table.code).toBe(0)
    expect(table.stdout).toMatch(new RegExp(`^tools +${expected.analysis.tool_count}$`, 'm'))
    expect(table.stdout).toMatch(/^sub-agents +1 \(agent-a2898e3\.jsonl\)$/m)
    expect(table.stdout).toMatch(/^ +Bash +\d+$/m)
    const json = await somnus(['transcript', 'stats', main, '--json'])
    expect(JSON.parse(json.stdout)).toEqual({ ...expected.analysis, files: expected.files })
    const alone = await somnus(['transcript', 'stats', main, '--json', '--no-subagents'])
    expect(JSON.parse(alone.stdout)).toEqual({
      ...(await analyzeTranscriptFile(main)),
      files: [main],
    })
  })

  it('finds a session by id under ~/.claude/projects, and by the ledger', async () => {
    const folder = join(home, '.claude/projects/-somewhere-else')
    mkdirSync(join(folder, session, 'subagents'), { recursive: true })
    copyFileSync(main, join(folder, `${session}.jsonl`))
    const byScan = await somnus(['transcript', 'stats', session, '--json'], { brain: false })
    expect(byScan.code).toBe(0)
    expect(JSON.parse(byScan.stdout).files).toEqual([join(folder, `${session}.jsonl`)])

    const ledger = { sessions: [{ session_id: 'abc', transcript_path: main }] }
    writeFileSync(join(root, 'state/.sleep.json'), JSON.stringify(ledger))
    const byLedger = await somnus(['transcript', 'stats', 'abc', '--json'])
    expect(byLedger.code).toBe(0)
    expect(JSON.parse(byLedger.stdout).files[0]).toBe(main)
  })

  it('distill starts after the last sleep that consumed the session, unless told otherwise', async () => {
    const history = [
      {
        date: '2026-02-13',
        consolidated_at: '2026-02-12T20:00:00.000Z',
        summary: 'later',
        debt_before: 5,
        debt_after: 0,
        sessions_processed: 1,
        session_ids: [session],
      },
      {
        date: '2026-02-12',
        consolidated_at: '2026-02-12T17:00:00.000Z',
        summary: 'earlier',
        debt_before: 5,
        debt_after: 0,
        sessions_processed: 1,
        session_ids: [session],
      },
    ]
    writeFileSync(join(root, 'state/.sleep-history.json'), JSON.stringify(history))
    const defaulted = await somnus(['transcript', 'distill', main])
    expect(defaulted.code).toBe(0)
    expect(defaulted.stdout).toContain(
      `## Session ${session} -- Distilled Transcript (since 2026-02-12T20:00:00.000Z)`,
    )
    const all = await somnus(['transcript', 'distill', main, '--all'])
    expect(all.stdout).toContain(`## Session ${session} -- Distilled Transcript\n`)
    expect(all.stdout.length).toBeGreaterThan(defaulted.stdout.length)
    expect(all.stdout).toContain('### Errors & Issues')
    const explicit = await somnus([
      'transcript',
      'distill',
      main,
      '--since',
      '2026-02-12T16:30:00Z',
      '--full',
    ])
    expect(explicit.stdout).toContain('(since 2026-02-12T16:30:00Z)')
    const bare = await somnus(['transcript', 'distill', main], { brain: false })
    expect(bare.stdout).toBe(all.stdout)
  })
})
