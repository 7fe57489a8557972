/**
 * Issue 13 item 14, through real processes: a planted ledger with nonsense counts (negative,
 * fractional, absurd, NaN-ish strings) is repaired, never shown as is and never set aside whole.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'
import { sessionStartSync } from './support/spawn-hook.ts'

/** Numbers any old reader took as they were (it showed "-4 (Alert)" for a debt of -5 plus 1). */
const NUMERIC_NONSENSE = {
  debt: -5,
  sessions_since_last_sleep: 2.5,
  sessions: [
    { session_id: 's1', score: 1, change_count: -3, tool_count: 2 },
    { session_id: 's2', score: 2.5, change_count: 1e308, tool_count: 4 },
    { session_id: 's3', score: 1e308 },
  ],
  triggers: [
    { id: 't1', when: 'deploy', remind: 'tag it', created_at: '2026-01-01', fired_count: -1 },
  ],
}

/** Strings where numbers belong: an old reader set the whole ledger aside for these. */
const STRING_NONSENSE = {
  debt: 'NaN',
  sessions: [
    { session_id: 's1', score: 2 },
    { session_id: 's2', score: 'NaN', tool_count: '12' },
  ],
  bookmarks: [{ id: 'bm_1', message: 'keep me', salience: 3, created_at: '2026-01-01' }],
  triggers: [
    { id: 't1', when: 'deploy', remind: 'tag it', created_at: '2026-01-01', max_fires: 'x' },
  ],
}

function plantedBrain(ledger: unknown): string {
  const project = mkdtempSync(join(tmpdir(), 'somnus-repair-'))
  execFileSync(process.execPath, [SOMNUS_BIN, 'init', project, '--plugin'], { stdio: 'pipe' })
  writeFileSync(join(project, '_agent_context/state/.sleep.json'), JSON.stringify(ledger))
  return project
}

function somnus(project: string, args: string[]): string {
  return execFileSync(process.execPath, [SOMNUS_BIN, ...args], { cwd: project, encoding: 'utf8' })
}

const ledgerOf = (project: string) =>
  JSON.parse(readFileSync(join(project, '_agent_context/state/.sleep.json'), 'utf8'))
const setAside = (project: string) =>
  readdirSync(join(project, '_agent_context/state')).filter((name) => name.includes('.corrupt-'))

describe('a ledger with nonsense counts', () => {
  beforeAll(() => ensureBuilt(), 300_000)

  it('shows a whole, non-negative debt derived from the scores, with nonsense scores pending', () => {
    const project = plantedBrain(NUMERIC_NONSENSE)
    expect(somnus(project, ['sleep', 'debt']).trim()).toBe('1')
    expect(somnus(project, ['sleep', 'status'])).toMatch(/^Sleep debt: 1 \(Alert/)
    const status = JSON.parse(somnus(project, ['sleep', 'status', '--json']))
    expect(status.debt).toBe(1)
    expect(status.sessions_since_last_sleep).toBe(3)
    expect(status.sessions).toMatchObject([
      { session_id: 's1', score: 1, change_count: null, tool_count: 2 },
      { session_id: 's2', score: null, change_count: null, tool_count: 4 },
      { session_id: 's3', score: null },
    ])
  })

  it('is repaired by SessionStart, losing no session, bookmark or trigger', () => {
    const project = plantedBrain(STRING_NONSENSE)
    expect(somnus(project, ['sleep', 'debt']).trim()).toBe('2')
    sessionStartSync(project, { ...process.env, CLAUDE_PROJECT_DIR: project })
    expect(setAside(project)).toEqual([])
    const ledger = ledgerOf(project)
    expect(ledger.sessions.map((session: { session_id: string }) => session.session_id)).toEqual([
      's1',
      's2',
    ])
    expect(ledger.sessions[1]).toMatchObject({ tool_count: null })
    expect(ledger.bookmarks).toMatchObject([{ id: 'bm_1', message: 'keep me' }])
    expect(ledger.triggers).toMatchObject([{ id: 't1', max_fires: 3 }])
    expect(Number.isInteger(ledger.debt) && ledger.debt >= 0).toBe(true)
  })
})
