import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createLedgerCliProject,
  type LedgerCliProject,
} from '../../../../test/support/ledger-cli-project.ts'

let project: LedgerCliProject

beforeEach(() => {
  project = createLedgerCliProject()
})

afterEach(() => {
  project.dispose()
})

function session(id: string, score: number | null, extra: Record<string, unknown> = {}) {
  return {
    session_id: id,
    transcript_path: `/t/${id}.jsonl`,
    stopped_at: '2026-02-24T18:30:00.000Z',
    last_assistant_message: `Finished ${id}`,
    change_count: 7,
    tool_count: 35,
    score,
    task_slugs: [],
    ...extra,
  }
}

describe('somnus sleep status', () => {
  it('shows debt, level, last sleep date and a line per session (seed 000)', async () => {
    const long = `Implemented JWT middleware ${'and more '.repeat(30)}`
    project.writeLedger({
      debt: 5,
      last_sleep: '2026-02-24',
      last_sleep_summary: 'Consolidated auth decisions',
      sessions_since_last_sleep: 2,
      sessions: [
        session('abc', 2, { last_assistant_message: long }),
        session('def', null, { change_count: null, tool_count: null }),
        session('manual-1', 3, {
          transcript_path: null,
          change_count: null,
          tool_count: null,
          last_assistant_message: 'Design talk',
        }),
      ],
    })
    const { code, stdout } = await project.run('sleep', 'status')
    expect(code).toBe(0)
    expect(stdout).toContain('Sleep debt: 5 (Drowsy, 4-6; seed scoring)')
    expect(stdout).toContain('Last sleep: 2026-02-24 — Consolidated auth decisions')
    expect(stdout).toContain('Sessions since last sleep: 2')
    const preview = long.replace(/\s+/g, ' ').trim().slice(0, 120)
    expect(stdout).toContain(`  (+2) 7 changes, 35 tools — ${preview}...\n`)
    expect(stdout).toContain('  (pending) not analysed yet — Finished def')
    expect(stdout).toContain('  (+3) manual entry — Design talk')
  })

  it('says never and no sessions for a fresh brain', async () => {
    const { stdout } = await project.run('sleep', 'status')
    expect(stdout).toContain('Sleep debt: 0 (Alert, 0-3; seed scoring)')
    expect(stdout).toContain('Last sleep: never')
    expect(stdout).toContain('No sessions since the last sleep.')
    expect(project.ledgerText()).toBeNull()
  })

  it.each([
    [0, 'Alert'],
    [3, 'Alert'],
    [4, 'Drowsy'],
    [6, 'Drowsy'],
    [7, 'Sleepy'],
    [9, 'Sleepy'],
    [10, 'Must Sleep'],
    [14, 'Must Sleep'],
  ])('names debt %i %s (seed 000 levels)', async (debt, level) => {
    project.writeLedger({ debt })
    const { stdout } = await project.run('sleep', 'status', '--json')
    expect(JSON.parse(stdout)).toMatchObject({ debt, level })
  })

  it('prints JSON with the seed field names', async () => {
    project.writeLedger({ debt: 2, sessions: [session('abc', 2)], bookmarks: [] })
    const { stdout } = await project.run('sleep', 'status', '--json')
    const status = JSON.parse(stdout)
    expect(status).toMatchObject({
      debt: 2,
      level: 'Alert',
      policy: 'seed',
      last_sleep: null,
      sleep_started_at: null,
      sessions_since_last_sleep: 0,
      bookmarks_pending: 0,
      recent_history: [],
    })
    expect(status.sessions[0]).toMatchObject({
      session_id: 'abc',
      change_count: 7,
      tool_count: 35,
      score: 2,
      last_assistant_message: 'Finished abc',
    })
  })

  it('uses the calibrated levels when somnus.json says so', async () => {
    project.writeConfig({ scoring: 'calibrated' })
    project.writeLedger({ debt: 30 })
    const { stdout } = await project.run('sleep', 'status')
    expect(stdout).toContain('Sleep debt: 30 (Drowsy, 24-39; calibrated scoring)')
  })
})

describe('somnus sleep debt', () => {
  it('prints the raw debt number only (seed 000)', async () => {
    project.writeLedger({ debt: 7 })
    expect(await project.run('sleep', 'debt')).toEqual({ code: 0, stdout: '7\n', stderr: '' })
  })
})

describe('somnus sleep add', () => {
  it('records a manual entry and adds its score (seed 000)', async () => {
    const { code, stdout } = await project.run(
      'sleep',
      'add',
      '2',
      'Designed',
      'the',
      'auth',
      'flow',
    )
    expect(code).toBe(0)
    expect(stdout).toContain('Added 2 to sleep debt: now 2 (Alert).')
    const ledger = project.ledger()
    expect(ledger?.debt).toBe(2)
    const [entry] = (ledger?.sessions ?? []) as Record<string, unknown>[]
    expect(entry).toMatchObject({
      transcript_path: null,
      change_count: null,
      tool_count: null,
      score: 2,
      last_assistant_message: 'Designed the auth flow',
    })
    expect(String(entry?.session_id)).toMatch(/^manual-\d+$/)
    expect((await project.run('sleep', 'debt')).stdout).toBe('2\n')
  })

  it('warns when the debt reaches Sleepy and Must Sleep', async () => {
    project.writeLedger({ debt: 6 })
    expect((await project.run('sleep', 'add', '1', 'x')).stdout).toContain('Getting sleepy')
    expect((await project.run('sleep', 'add', '3', 'y')).stdout).toContain('Must sleep')
  })

  it.each([['0'], ['4'], ['abc'], ['2.5']])(
    'refuses score %s with exit 2 and leaves the ledger untouched (seed 000: 1-3 only)',
    async (score) => {
      project.writeLedger({ debt: 1 })
      const before = project.ledgerText()
      const { code, stdout, stderr } = await project.run('sleep', 'add', score, 'x')
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/Score must be a whole number/)
      expect(stderr).toContain('somnus sleep add 2')
      expect(project.ledgerText()).toBe(before)
    },
  )

  it('accepts scores up to 10 under the calibrated policy', async () => {
    project.writeConfig({ scoring: 'calibrated' })
    expect((await project.run('sleep', 'add', '10', 'Big', 'design')).code).toBe(0)
    expect(project.ledger()?.debt).toBe(10)
    expect((await project.run('sleep', 'add', '11', 'x')).code).toBe(2)
  })

  it('needs a description', async () => {
    const { code } = await project.run('sleep', 'add', '2')
    expect(code).toBe(2)
    expect(project.ledgerText()).toBeNull()
  })
})

describe('somnus sleep start and done', () => {
  it('done resets debt, records last_sleep and clears sessions (seed 000)', async () => {
    project.writeLedger({
      debt: 8,
      sessions_since_last_sleep: 3,
      sessions: [session('a', 3), session('b', 3), session('c', 2)],
      bookmarks: [
        {
          id: 'bm_1',
          message: 'm',
          salience: 3,
          created_at: '2026-02-24T10:00:00.000Z',
          session_id: null,
          task_slug: null,
        },
      ],
    })
    const { code, stdout } = await project.run('sleep', 'done', 'Folded', 'auth', 'decisions')
    expect(code).toBe(0)
    expect(stdout).toContain('Consolidation recorded. Debt 8 → 0 (Alert).')
    const ledger = project.ledger()
    expect(ledger).toMatchObject({
      debt: 0,
      sessions: [],
      bookmarks: [],
      sessions_since_last_sleep: 0,
      last_sleep_summary: 'Folded auth decisions',
      sleep_started_at: null,
    })
    expect(ledger?.last_sleep).toBe(new Date().toISOString().slice(0, 10))
    expect(project.history()).toEqual([
      expect.objectContaining({
        summary: 'Folded auth decisions',
        debt_before: 8,
        debt_after: 0,
        sessions_processed: 3,
        bookmarks_processed: 1,
        session_ids: ['a', 'b', 'c'],
      }),
    ])
    expect((await project.run('sleep', 'debt')).stdout).toBe('0\n')
  })

  it('start sets the epoch; done keeps work recorded after it', async () => {
    project.writeLedger({ debt: 3, sessions: [session('old', 3)] })
    const started = await project.run('sleep', 'start')
    expect(started.code).toBe(0)
    expect(started.stdout).toMatch(/^Consolidation started at \d{4}-\d\d-\d\dT/)
    const epoch = String(project.ledger()?.sleep_started_at)
    expect((await project.run('sleep', 'status')).stdout).toContain(
      `Consolidation in progress since ${epoch}`,
    )
    await new Promise((resolve) => setTimeout(resolve, 5))
    await project.run('sleep', 'add', '2', 'Work', 'during', 'sleep')
    const done = await project.run('sleep', 'done', 'Consolidated')
    expect(done.stdout).toContain('Debt 5 → 2 (Alert)')
    expect(done.stdout).toContain('Kept 1 session(s) and 0 bookmark(s)')
    const ledger = project.ledger()
    expect(ledger?.debt).toBe(2)
    expect(
      ((ledger?.sessions ?? []) as { last_assistant_message: string }[]).map(
        (s) => s.last_assistant_message,
      ),
    ).toEqual(['Work during sleep'])
    // The consumption boundary is the end of the sleep (after the epoch), so the sleep's own
    // work is never booked again (dreamcontext #298).
    expect(String(ledger?.last_consolidated_at) > epoch).toBe(true)
  })

  it('start warns on stderr when a consolidation is already marked running', async () => {
    await project.run('sleep', 'start')
    const again = await project.run('sleep', 'start')
    expect(again.code).toBe(0)
    expect(again.stderr).toContain('already marked as started')
  })

  it('done requires a summary', async () => {
    project.writeLedger({ debt: 4 })
    expect((await project.run('sleep', 'done')).code).toBe(2)
    expect((await project.run('sleep', 'done', ' ')).code).toBe(2)
    expect(project.ledger()?.debt).toBe(4)
  })
})

describe('somnus sleep history', () => {
  it('lists consolidations newest first, 10 by default, -n to limit', async () => {
    for (let index = 1; index <= 12; index += 1) {
      await project.run('sleep', 'add', '1', `work ${index}`)
      await project.run('sleep', 'done', `sleep ${index}`)
    }
    const all = await project.run('sleep', 'history')
    const lines = all.stdout.trim().split('\n')
    expect(lines).toHaveLength(10)
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\d {2}debt 1 → 0 {2}1 session, 0 bookmarks {2}sleep 12$/,
    )
    const limited = await project.run('sleep', 'history', '-n', '2', '--json')
    expect(JSON.parse(limited.stdout).map((entry: { summary: string }) => entry.summary)).toEqual([
      'sleep 12',
      'sleep 11',
    ])
  })

  it('says so when there is no history, and refuses a bad limit', async () => {
    expect((await project.run('sleep', 'history')).stdout).toBe('No consolidations yet.\n')
    const bad = await project.run('sleep', 'history', '--limit', '0')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--limit must be a whole number of at least 1')
  })
})

describe('somnus sleep help and errors', () => {
  it('teaches with a description and examples', async () => {
    for (const verb of ['status', 'debt', 'add', 'start', 'done', 'history']) {
      const { code, stdout } = await project.run('sleep', verb, '--help')
      expect(code).toBe(0)
      expect(stdout).toContain('Example')
      expect(stdout).toContain('somnus sleep')
    }
  })

  it('sets aside a corrupt ledger, warns, and keeps working', async () => {
    writeFileSync(join(project.stateDir, '.sleep.json'), '{"debt": ')
    const { code, stdout, stderr } = await project.run('sleep', 'debt')
    expect(code).toBe(0)
    expect(stdout).toBe('0\n')
    expect(stderr).toContain('.sleep.json.corrupt-')
  })
})
