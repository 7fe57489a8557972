/**
 * Issue 18: a cloned repository's ledger is attacker text. Planted pending sessions whose
 * transcripts cannot be read must not make every SessionStart read them all, nor write one log
 * line each: a start reads at most PENDING_SESSIONS_PER_START (200), and a run logs at most
 * MAX_LOG_LINES_PER_RUN lines plus one summary line.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { PENDING_SESSIONS_PER_START } from '../src/brain/app/finish-pending-sessions.ts'
import { MAX_LOG_LINES_PER_RUN } from '../src/surfaces/hooks/run-hook.ts'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'
import { sessionStartSync } from './support/spawn-hook.ts'

const PLANTED = PENDING_SESSIONS_PER_START + 100

function plantedBrain(): string {
  const project = mkdtempSync(join(tmpdir(), 'somnus-pending-cap-'))
  execFileSync(process.execPath, [SOMNUS_BIN, 'init', project, '--plugin'], { stdio: 'pipe' })
  // A directory where a transcript belongs: every read fails and warns, the score stays pending.
  const unreadable = join(project, 'not-a-transcript')
  mkdirSync(unreadable)
  const stoppedAt = new Date().toISOString()
  const sessions = Array.from({ length: PLANTED }, (_, index) => ({
    session_id: `planted-${index}`,
    transcript_path: unreadable,
    stopped_at: stoppedAt,
    score: null,
  }))
  writeFileSync(
    join(project, '_agent_context/state/.sleep.json'),
    JSON.stringify({ debt: 0, sessions }),
  )
  return project
}

describe('a ledger planted with unreadable pending sessions', () => {
  beforeAll(() => ensureBuilt(), 300_000)

  it('is read at most PENDING_SESSIONS_PER_START sessions per start, with a bounded hook log', () => {
    const project = plantedBrain()
    sessionStartSync(project, {
      PATH: process.env.PATH,
      HOME: project,
      CLAUDE_PROJECT_DIR: project,
    })
    const log = readFileSync(join(project, '_agent_context/state/.somnus-hook.log'), 'utf8')
    const lines = log.trim().split('\n')
    const unreadable = lines.filter((line) => line.includes('not-a-transcript'))
    expect(unreadable.length).toBeGreaterThan(0)
    expect(lines.length).toBeLessThanOrEqual(MAX_LOG_LINES_PER_RUN + 1)
    // Every failed read warns once: those logged and those the summary line counts.
    const unlogged = Number(/(\d+) more warnings in this run not logged/.exec(log)?.[1] ?? 0)
    expect(unreadable.length + unlogged).toBeLessThanOrEqual(PENDING_SESSIONS_PER_START)
    expect(unreadable.length + unlogged).toBeGreaterThan(MAX_LOG_LINES_PER_RUN)
  })
})
