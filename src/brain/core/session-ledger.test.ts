import { describe, expect, it } from 'vitest'
import { capClosingMessage, MAX_CLOSING_MESSAGE_CHARS } from './closing-message.ts'
import {
  COMPACTION_LOG_CAP,
  countTriggerFires,
  finishPendingSessions,
  pendingSessions,
  recordCompaction,
  recordSessionEnd,
  type StoppedSession,
  type TranscriptOutcome,
  upsertStoppedSession,
} from './session-ledger.ts'
import { type Bookmark, freshSleepState, type SleepState } from './sleep-state.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')
const LATER = new Date('2026-03-01T12:05:00.000Z')

function scored(score: number, slugs: string[] = []): TranscriptOutcome {
  return {
    kind: 'scored',
    change_count: score * 2,
    tool_count: score * 5,
    score,
    task_slugs: slugs,
  }
}

function stop(id: string, outcome: TranscriptOutcome, now = NOW): StoppedSession {
  return {
    session_id: id,
    transcript_path: `/t/${id}.jsonl`,
    last_assistant_message: `finished ${id}`,
    outcome,
    now,
  }
}

function bookmark(id: string, sessionId: string | null, taskSlug: string | null = null): Bookmark {
  return {
    id,
    message: `bookmark ${id}`,
    salience: 2,
    created_at: NOW.toISOString(),
    session_id: sessionId,
    task_slug: taskSlug,
  }
}

describe('upsertStoppedSession', () => {
  it('books a new session on top, counts it once and adds its score', () => {
    const first = upsertStoppedSession(freshSleepState(), stop('a', scored(2)))
    const second = upsertStoppedSession(first, stop('b', scored(1)))
    expect(second.sessions.map((session) => session.session_id)).toEqual(['b', 'a'])
    expect(second.debt).toBe(3)
    expect(second.sessions_since_last_sleep).toBe(2)
    expect(second.sessions[1]).toMatchObject({
      transcript_path: '/t/a.jsonl',
      stopped_at: NOW.toISOString(),
      last_assistant_message: 'finished a',
      change_count: 4,
      tool_count: 10,
      score: 2,
    })
  })

  it('replaces the score of a session that stops again (once per turn), never adds it twice', () => {
    let state = upsertStoppedSession(freshSleepState(), stop('a', scored(1)))
    state = upsertStoppedSession(state, stop('b', scored(2)))
    state = upsertStoppedSession(state, stop('a', scored(3), LATER))
    state = upsertStoppedSession(state, stop('a', scored(3), LATER))
    expect(state.debt).toBe(5)
    expect(state.sessions).toHaveLength(2)
    expect(state.sessions_since_last_sleep).toBe(2)
    // In place, not moved to the top: LIFO is by first stop.
    expect(state.sessions.map((session) => session.session_id)).toEqual(['b', 'a'])
    expect(state.sessions[1]?.stopped_at).toBe(LATER.toISOString())
  })

  it('keeps a closing message up to the cap whole, and the previous one when a turn has none', () => {
    const whole = `${'Fixed the parser. '.repeat(200)}Tests pass.`
    expect(whole.length).toBeLessThanOrEqual(MAX_CLOSING_MESSAGE_CHARS)
    let state = upsertStoppedSession(freshSleepState(), {
      ...stop('a', scored(1)),
      last_assistant_message: whole,
    })
    expect(state.sessions[0]?.last_assistant_message).toBe(whole)
    state = upsertStoppedSession(state, { ...stop('a', scored(1)), last_assistant_message: null })
    expect(state.sessions[0]?.last_assistant_message).toBe(whole)
  })

  it('caps a giant closing message at a sentence end, saying the transcript has the rest', () => {
    const giant = 'Refactored the ledger writer. '.repeat(700_000) // 21 MB
    const state = upsertStoppedSession(freshSleepState(), {
      ...stop('a', scored(1)),
      last_assistant_message: giant,
    })
    const kept = state.sessions[0]?.last_assistant_message ?? ''
    expect(kept.length).toBeLessThanOrEqual(MAX_CLOSING_MESSAGE_CHARS)
    expect(kept.length).toBeGreaterThan(MAX_CLOSING_MESSAGE_CHARS / 2)
    expect(kept).toMatch(
      /^Refactored the ledger writer\.( Refactored the ledger writer\.)+ \[…\] \(cut;/,
    )
    expect(capClosingMessage(kept)).toBe(kept)
  })

  it('caps the oversized messages an old ledger holds at its next write, in any session', () => {
    const fresh = upsertStoppedSession(freshSleepState(), stop('old', scored(1)))
    const old: SleepState = {
      ...fresh,
      sessions: fresh.sessions.map((session) => ({
        ...session,
        last_assistant_message: 'y '.repeat(5_000_000),
      })),
    }
    const stopped = upsertStoppedSession(old, stop('new', scored(1)))
    const ended = recordSessionEnd(old, { ...stop('old', { kind: 'pending' }), reason: 'exit' })
    for (const state of [stopped, ended]) {
      for (const session of state.sessions) {
        expect(session.last_assistant_message?.length ?? 0).toBeLessThanOrEqual(
          MAX_CLOSING_MESSAGE_CHARS,
        )
      }
    }
  })

  it('links every unlinked bookmark to the session and takes their task slugs', () => {
    const start: SleepState = {
      ...freshSleepState(),
      bookmarks: [bookmark('b1', null, 'auth'), bookmark('b2', 'older'), bookmark('b3', null)],
    }
    const state = upsertStoppedSession(start, stop('a', scored(1, ['billing'])))
    expect(state.bookmarks.map((entry) => entry.session_id)).toEqual(['a', 'older', 'a'])
    expect(state.sessions[0]?.task_slugs.sort()).toEqual(['auth', 'billing'])
  })

  it('leaves the score pending (null, not 0) with unknown counts when the transcript is missing', () => {
    const state = upsertStoppedSession(freshSleepState(), stop('a', { kind: 'pending' }))
    expect(state.sessions[0]).toMatchObject({ score: null, change_count: null, tool_count: null })
    expect(state.debt).toBe(0)
    expect(state.sessions_since_last_sleep).toBe(1)
  })

  it('takes the old score off when a later turn cannot read the transcript', () => {
    let state = upsertStoppedSession(freshSleepState(), stop('a', scored(2)))
    state = upsertStoppedSession(state, stop('a', { kind: 'pending' }))
    expect(state.debt).toBe(0)
    expect(state.sessions[0]?.score).toBeNull()
    expect(pendingSessions(state).map((session) => session.session_id)).toEqual(['a'])
  })

  it('books a skipped (oversized) transcript at 0 with the reason', () => {
    const state = upsertStoppedSession(
      freshSleepState(),
      stop('a', { kind: 'skipped', note: 'transcript skipped: 60 MB over the cap' }),
    )
    expect(state.sessions[0]).toMatchObject({
      score: 0,
      change_count: null,
      note: expect.any(String),
    })
    expect(pendingSessions(state)).toEqual([])
  })

  it('does not change its input', () => {
    const start = upsertStoppedSession(freshSleepState(), stop('a', scored(1)))
    const copy = structuredClone(start)
    upsertStoppedSession(start, stop('a', scored(3)))
    expect(start).toEqual(copy)
  })
})

describe('finishPendingSessions', () => {
  const pendingA = upsertStoppedSession(freshSleepState(), stop('a', { kind: 'pending' }))
  const pendingAB = upsertStoppedSession(pendingA, stop('b', { kind: 'pending' }))

  it('scores pending sessions whose transcript is now readable, adding to the debt', () => {
    const { state, finished } = finishPendingSessions(pendingAB, new Map([['a', scored(2)]]), LATER)
    expect(finished).toEqual(['a'])
    expect(state.debt).toBe(2)
    expect(state.sessions.find((session) => session.session_id === 'a')?.score).toBe(2)
    expect(state.sessions.find((session) => session.session_id === 'b')?.score).toBeNull()
  })

  it('books 0 for sessions still unreadable after seven days, and marks them', () => {
    const eightDaysLater = new Date(NOW.getTime() + 8 * 24 * 3600 * 1000)
    const { state, finished } = finishPendingSessions(pendingA, new Map(), eightDaysLater)
    expect(finished).toEqual(['a'])
    expect(state.sessions[0]).toMatchObject({ score: 0, catchup_finalized: true })
    const sixDaysLater = new Date(NOW.getTime() + 6 * 24 * 3600 * 1000)
    expect(finishPendingSessions(pendingA, new Map(), sixDaysLater).finished).toEqual([])
  })

  it('books 0 at once for a session without a transcript path', () => {
    const start = upsertStoppedSession(freshSleepState(), {
      ...stop('a', { kind: 'pending' }),
      transcript_path: null,
    })
    expect(finishPendingSessions(start, new Map(), NOW).state.sessions[0]?.score).toBe(0)
  })

  it('never re-analyses manual entries and leaves sessions scored meanwhile alone', () => {
    const start: SleepState = {
      ...pendingA,
      debt: 3,
      sessions: [
        {
          session_id: 'manual-1',
          transcript_path: null,
          stopped_at: null,
          last_assistant_message: 'design talk',
          change_count: null,
          tool_count: null,
          score: null,
          task_slugs: [],
        },
        { ...pendingA.sessions[0], score: 3 } as SleepState['sessions'][number],
      ],
    }
    const result = finishPendingSessions(
      start,
      new Map([
        ['manual-1', scored(3)],
        ['a', scored(1)],
      ]),
      new Date(NOW.getTime() + 30 * 24 * 3600 * 1000),
    )
    expect(result.finished).toEqual([])
    expect(result.state).toBe(start)
    expect(pendingSessions(start)).toEqual([])
  })
})

describe('recordSessionEnd', () => {
  it('records the reason and upserts a fresh score without double counting', () => {
    const start = upsertStoppedSession(freshSleepState(), stop('a', scored(1)))
    const state = recordSessionEnd(start, {
      ...stop('a', scored(2), LATER),
      last_assistant_message: null,
      reason: 'prompt_input_exit',
    })
    expect(state.debt).toBe(2)
    expect(state.sessions_since_last_sleep).toBe(1)
    expect(state.sessions[0]).toMatchObject({
      score: 2,
      end_reason: 'prompt_input_exit',
      ended_at: LATER.toISOString(),
      last_assistant_message: 'finished a',
      stopped_at: NOW.toISOString(),
    })
  })

  it('keeps the score of a known session when the transcript is unreadable at the end', () => {
    const start = upsertStoppedSession(freshSleepState(), stop('a', scored(2)))
    const state = recordSessionEnd(start, { ...stop('a', { kind: 'pending' }), reason: 'other' })
    expect(state.debt).toBe(2)
    expect(state.sessions[0]?.score).toBe(2)
  })

  it('adds an unknown session only when its transcript was read', () => {
    const none = recordSessionEnd(freshSleepState(), {
      ...stop('a', { kind: 'pending' }),
      reason: 'other',
    })
    expect(none.sessions).toEqual([])
    const read = recordSessionEnd(freshSleepState(), { ...stop('a', scored(1)), reason: 'other' })
    expect(read.sessions[0]).toMatchObject({ session_id: 'a', score: 1, end_reason: 'other' })
    expect(read.sessions_since_last_sleep).toBe(1)
  })
})

describe('recordCompaction and countTriggerFires', () => {
  it('keeps the newest twenty compactions, newest first', () => {
    let state = upsertStoppedSession(freshSleepState(), stop('a', scored(2)))
    for (let index = 0; index < 25; index += 1) {
      state = recordCompaction(state, {
        trigger: index % 2 === 0 ? 'auto' : null,
        now: new Date(NOW.getTime() + index * 1000),
      })
    }
    expect(state.compaction_log).toHaveLength(COMPACTION_LOG_CAP)
    expect(state.compaction_log[0]).toMatchObject({
      trigger: 'auto',
      debt_at_compaction: 2,
      sessions_count: 1,
      bookmarks_count: 0,
      timestamp: new Date(NOW.getTime() + 24_000).toISOString(),
    })
    expect(state.compaction_log[1]?.trigger).toBe('unknown')
  })

  it('adds one fire to each surfaced trigger', () => {
    const trigger = (id: string) => ({
      id,
      when: 'auth',
      remind: 'refresh tokens',
      source: null,
      created_at: NOW.toISOString(),
      fired_count: 1,
      max_fires: 3,
    })
    const start: SleepState = { ...freshSleepState(), triggers: [trigger('t1'), trigger('t2')] }
    const state = countTriggerFires(start, ['t2'])
    expect(state.triggers.map((entry) => entry.fired_count)).toEqual([1, 2])
    expect(countTriggerFires(start, [])).toBe(start)
  })
})
