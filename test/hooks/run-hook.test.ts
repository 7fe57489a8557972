/**
 * `runHook` in-process against temporary brains on disk and copies of real Claude Code
 * transcripts: the counts it books must equal a plain JSON.parse reference count.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seedScoringPolicy } from '../../src/brain/core/scoring/seed-scoring-policy.ts'
import {
  copyTranscript,
  HOOK_TEST_NOW,
  hookWorkspaces,
  REAL_SESSIONS,
  readLedger,
  referenceCounts,
  runHookIn,
  stopPayload,
  writeLedger,
} from '../support/hook-workspace.ts'
import { HAS_SHARED } from '../support/shared-data.ts'

const NOW = HOOK_TEST_NOW
const workspace = hookWorkspaces()
const hook = runHookIn

function expectedScore(counts: { change_count: number; tool_count: number }): number {
  return seedScoringPolicy.scoreSession({
    ...counts,
    novel_tokens: 0,
    user_turns: 0,
    assistant_chars: 0,
    decision_markers: 0,
    task_slugs: 0,
  })
}

describe.skipIf(!HAS_SHARED)('runHook with real transcripts', () => {
  it.each(REAL_SESSIONS)(
    'Stop books the exact counts of %s (sub-agents included)',
    async (source) => {
      const ws = workspace()
      const path = copyTranscript(ws, source, 'session-1')
      const result = await hook(
        ws,
        'stop',
        stopPayload(ws, 'session-1', path, 'Shipped the parser.'),
      )
      expect(result).toEqual({ stdout: '', log: [] })
      const reference = referenceCounts(path)
      expect(reference.tool_count).toBeGreaterThan(0)
      const ledger = readLedger(ws)
      expect(ledger.sessions).toHaveLength(1)
      expect(ledger.sessions[0]).toMatchObject({
        session_id: 'session-1',
        transcript_path: path,
        last_assistant_message: 'Shipped the parser.',
        stopped_at: NOW.toISOString(),
        ...reference,
        score: expectedScore(reference),
      })
      expect(ledger.debt).toBe(expectedScore(reference))
      expect(ledger.sessions_since_last_sleep).toBe(1)
    },
  )

  it('Stop once per turn: the same session stopping again is not booked twice', async () => {
    const ws = workspace()
    const first = copyTranscript(ws, 'short', 'a')
    const second = copyTranscript(ws, REAL_SESSIONS[0], 'b')
    await hook(ws, 'stop', stopPayload(ws, 'a', first))
    await hook(ws, 'stop', stopPayload(ws, 'b', second))
    const before = readLedger(ws)
    await hook(ws, 'stop', stopPayload(ws, 'a', first, 'Second turn.'))
    await hook(ws, 'stop', stopPayload(ws, 'a', first, 'Third turn.'))
    const after = readLedger(ws)
    expect(after.debt).toBe(before.debt)
    expect(after.sessions.map((session) => session.session_id)).toEqual(['b', 'a'])
    expect(after.sessions_since_last_sleep).toBe(2)
    expect(after.sessions[1]?.last_assistant_message).toBe('Third turn.')
  })

  it('Stop before the transcript exists leaves the score pending; SessionStart finishes it', async () => {
    const ws = workspace()
    const path = join(ws.transcripts, 'late.jsonl')
    await hook(ws, 'stop', stopPayload(ws, 'late', path))
    expect(readLedger(ws).sessions[0]).toMatchObject({
      score: null,
      change_count: null,
      tool_count: null,
    })
    expect(readLedger(ws).debt).toBe(0)

    copyTranscript(ws, 'subagent', 'late')
    const start = await hook(ws, 'session-start', {
      session_id: 'next',
      source: 'startup',
      cwd: ws.project,
    })
    expect(start.log).toEqual([])
    const reference = referenceCounts(path)
    expect(readLedger(ws).sessions[0]).toMatchObject({
      ...reference,
      score: expectedScore(reference),
    })
    expect(readLedger(ws).debt).toBe(expectedScore(reference))
  })

  it('counts only work after the last consolidation (since boundary)', async () => {
    const ws = workspace()
    const path = copyTranscript(ws, REAL_SESSIONS[1], 's')
    const timestamps = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"assistant"'))
      .map((line) => (JSON.parse(line) as { timestamp: string }).timestamp)
    const since = timestamps[Math.floor(timestamps.length / 2)] as string
    writeLedger(ws, { last_consolidated_at: since })
    await hook(ws, 'stop', stopPayload(ws, 's', path))
    const reference = referenceCounts(path, since)
    const full = referenceCounts(path)
    expect(reference.tool_count).toBeLessThan(full.tool_count)
    expect(readLedger(ws).sessions[0]).toMatchObject(reference)
  })

  it('books an oversized transcript at 0 with a note, and logs it', async () => {
    const ws = workspace({ transcript_max_bytes: 1000 })
    const path = copyTranscript(ws, 'tool_heavy', 'big')
    const result = await hook(ws, 'stop', stopPayload(ws, 'big', path))
    expect(readLedger(ws).sessions[0]).toMatchObject({ score: 0, change_count: null })
    expect(String(readLedger(ws).sessions[0]?.note)).toMatch(/skipped/)
    expect(result.log.join('\n')).toMatch(/skipped/)
    expect(readFileSync(join(ws.root, 'state', '.somnus-hook.log'), 'utf8')).toMatch(
      / stop transcript skipped/,
    )
  })

  it('SessionEnd records the reason and keeps the score', async () => {
    const ws = workspace()
    const path = copyTranscript(ws, 'tool_heavy', 'e')
    await hook(ws, 'stop', stopPayload(ws, 'e', path))
    const debt = readLedger(ws).debt
    await hook(ws, 'session-end', {
      session_id: 'e',
      transcript_path: path,
      reason: 'prompt_input_exit',
    })
    expect(readLedger(ws).debt).toBe(debt)
    expect(readLedger(ws).sessions[0]).toMatchObject({ end_reason: 'prompt_input_exit' })
  })
})
