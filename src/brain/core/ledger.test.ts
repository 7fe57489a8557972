import { describe, expect, it } from 'vitest'
import { SomnusError } from '../../engine/core/errors.ts'
import {
  activeTriggers,
  addBookmark,
  addManualEntry,
  addTrigger,
  clearBookmarks,
  completeSleep,
  parseSalience,
  recomputeDebt,
  removeTrigger,
  startSleep,
  touchKnowledge,
} from './ledger.ts'
import { calibratedScoringPolicy } from './scoring/calibrated-scoring-policy.ts'
import { seedScoringPolicy } from './scoring/seed-scoring-policy.ts'
import {
  type Bookmark,
  freshSleepState,
  type SessionRecord,
  type SleepState,
  type Trigger,
} from './sleep-state.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')
const EPOCH = '2026-03-01T11:00:00.000Z'

function session(id: string, stoppedAt: string | null, score: number | null): SessionRecord {
  return {
    session_id: id,
    transcript_path: `/t/${id}.jsonl`,
    stopped_at: stoppedAt,
    last_assistant_message: `did ${id}`,
    change_count: 1,
    tool_count: 2,
    score,
    task_slugs: [],
  }
}

function bookmark(id: string, createdAt: string): Bookmark {
  return { id, message: id, salience: 2, created_at: createdAt, session_id: null, task_slug: null }
}

function trigger(id: string, fired: number, max: number): Trigger {
  return {
    id,
    when: 'auth',
    remind: 'r',
    source: null,
    created_at: EPOCH,
    fired_count: fired,
    max_fires: max,
  }
}

function expectError(action: () => unknown, code: string, text: string): void {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(SomnusError)
    expect((error as SomnusError).code).toBe(code)
    expect((error as SomnusError).message).toContain(text)
    return
  }
  throw new Error('expected an error')
}

describe('addManualEntry (seed 000: `sleep add <score> <description>`, scores 1-3 only)', () => {
  it('adds a manual-<ms> session first and raises the debt', () => {
    const before = { ...freshSleepState(), debt: 2, sessions: [session('s1', EPOCH, 2)] }
    const after = addManualEntry(before, {
      score: 3,
      description: '  Designed auth  ',
      now: NOW,
      policy: seedScoringPolicy,
    })
    expect(after.debt).toBe(5)
    expect(after.sessions.map((entry) => entry.session_id)).toEqual([
      `manual-${NOW.getTime()}`,
      's1',
    ])
    expect(after.sessions[0]).toEqual({
      session_id: `manual-${NOW.getTime()}`,
      transcript_path: null,
      stopped_at: NOW.toISOString(),
      last_assistant_message: 'Designed auth',
      change_count: null,
      tool_count: null,
      score: 3,
      task_slugs: [],
    })
    expect(before.sessions).toHaveLength(1)
    expect(before.debt).toBe(2)
  })

  it.each([0, 4, -1, 1.5, Number.NaN])('refuses score %s under the seed policy', (score) => {
    const add = () =>
      addManualEntry(freshSleepState(), {
        score,
        description: 'x',
        now: NOW,
        policy: seedScoringPolicy,
      })
    expectError(add, 'USAGE', 'from 1 to 3')
  })

  it('accepts up to 10 under the calibrated policy', () => {
    const state = addManualEntry(freshSleepState(), {
      score: 10,
      description: 'x',
      now: NOW,
      policy: calibratedScoringPolicy,
    })
    expect(state.debt).toBe(10)
  })

  it('requires a description', () => {
    const add = () =>
      addManualEntry(freshSleepState(), {
        score: 1,
        description: ' ',
        now: NOW,
        policy: seedScoringPolicy,
      })
    expectError(add, 'USAGE', 'description is required')
  })

  it('never reuses an id within one millisecond', () => {
    const input = { score: 1, description: 'x', now: NOW, policy: seedScoringPolicy }
    const twice = addManualEntry(addManualEntry(freshSleepState(), input), input)
    const ids = twice.sessions.map((entry) => entry.session_id)
    expect(new Set(ids).size).toBe(2)
  })
})

describe('startSleep', () => {
  it('sets the epoch and reports an epoch already set', () => {
    const first = startSleep(freshSleepState(), NOW)
    expect(first.state.sleep_started_at).toBe(NOW.toISOString())
    expect(first.alreadyRunning).toBe(false)
    const later = new Date('2026-03-01T13:00:00.000Z')
    const second = startSleep(first.state, later)
    expect(second.alreadyRunning).toBe(true)
    expect(second.previousStartedAt).toBe(NOW.toISOString())
    expect(second.state.sleep_started_at).toBe(later.toISOString())
  })
})

describe('completeSleep (seed 000: `sleep done` resets debt, records last_sleep, clears sessions)', () => {
  const busy: SleepState = {
    ...freshSleepState(),
    debt: 8,
    sessions_since_last_sleep: 4,
    sessions: [
      session('after', '2026-03-01T11:30:00.000Z', 2),
      session('before', '2026-03-01T10:00:00.000Z', 3),
      session('open', null, null),
      session('early', '2026-02-28T10:00:00.000Z', 3),
    ],
    bookmarks: [
      bookmark('new', '2026-03-01T11:10:00.000Z'),
      bookmark('old', '2026-03-01T09:00:00.000Z'),
    ],
    triggers: [trigger('spent', 3, 3), trigger('live', 1, 3), trigger('over', 5, 3)],
    dashboard_changes: [
      { timestamp: '2026-03-01T11:20:00.000Z' },
      { timestamp: '2026-03-01T10:00:00.000Z' },
    ],
  }

  it('without an epoch clears everything: debt 0, no sessions, no bookmarks', () => {
    const { state, history } = completeSleep(busy, { summary: ' Folded auth ', now: NOW })
    expect(state.debt).toBe(0)
    expect(state.sessions).toEqual([])
    expect(state.bookmarks).toEqual([])
    expect(state.dashboard_changes).toEqual([])
    expect(state.last_sleep).toBe('2026-03-01')
    expect(state.last_sleep_summary).toBe('Folded auth')
    expect(state.last_consolidated_at).toBe(NOW.toISOString())
    expect(state.sleep_started_at).toBeNull()
    expect(state.sessions_since_last_sleep).toBe(0)
    expect(history).toEqual({
      date: '2026-03-01',
      consolidated_at: NOW.toISOString(),
      summary: 'Folded auth',
      debt_before: 8,
      debt_after: 0,
      sessions_processed: 4,
      bookmarks_processed: 2,
      session_ids: ['after', 'before', 'open', 'early'],
      bookmark_ids: ['new', 'old'],
    })
  })

  it('after `sleep start` clears exactly what the start saw, by id, and keeps what came after', () => {
    const seen: SleepState = {
      ...busy,
      sessions: busy.sessions.filter((entry) => entry.session_id !== 'after'),
      bookmarks: busy.bookmarks.filter((entry) => entry.id === 'old'),
    }
    const started = startSleep(seen, new Date(EPOCH)).state
    const [before, open, early] = started.sessions
    const during: SleepState = {
      ...started,
      debt: 10,
      sessions: [
        session('after', '2026-03-01T11:30:00.000Z', 2),
        before as SessionRecord,
        open as SessionRecord,
        // Stopped again after the start: its new turns are not consolidated yet.
        { ...(early as SessionRecord), stopped_at: '2026-03-01T11:40:00.000Z' },
      ],
      bookmarks: [
        bookmark('new', '2026-03-01T11:10:00.000Z'),
        // Stamped before the start by a command that then waited for the lock.
        bookmark('raced', '2026-03-01T10:30:00.000Z'),
        ...started.bookmarks,
      ],
    }
    const { state, history } = completeSleep(during, { summary: 'x', now: NOW })
    expect(state.sessions.map((entry) => entry.session_id)).toEqual(['after', 'early'])
    expect(state.sessions[1]).not.toHaveProperty('sleep_seen_stopped_at')
    expect(state.debt).toBe(5)
    expect(state.bookmarks.map((entry) => entry.id)).toEqual(['new', 'raced'])
    expect(state.dashboard_changes).toEqual([{ timestamp: '2026-03-01T11:20:00.000Z' }])
    // The boundary is when the sleep ended, so the sleep's own work is never booked (#298).
    expect(state.last_consolidated_at).toBe(NOW.toISOString())
    expect(state.sleep_started_at).toBeNull()
    expect(state.sessions_since_last_sleep).toBe(2)
    expect(history.debt_before).toBe(10)
    expect(history.debt_after).toBe(5)
    expect(history.sessions_processed).toBe(2)
    expect(history.session_ids).toEqual(['before', 'open'])
    expect(history.bookmark_ids).toEqual(['old'])
  })

  it('expires triggers that reached max_fires and keeps the rest', () => {
    const { state } = completeSleep(busy, { summary: 'x', now: NOW })
    expect(state.triggers.map((entry) => entry.id)).toEqual(['live'])
  })

  it('requires a summary and leaves the state alone', () => {
    expectError(
      () => completeSleep(busy, { summary: '   ', now: NOW }),
      'USAGE',
      'summary is required',
    )
    expect(busy.debt).toBe(8)
  })
})

describe('bookmarks', () => {
  it('adds newest first, unlinked, with an optional task', () => {
    const one = addBookmark(freshSleepState(), { id: 'bm_1', message: 'a', salience: 1, now: NOW })
    const two = addBookmark(one, {
      id: 'bm_2',
      message: ' b ',
      salience: 3,
      now: NOW,
      taskSlug: 'auth',
    })
    expect(two.bookmarks).toEqual([
      {
        id: 'bm_2',
        message: 'b',
        salience: 3,
        created_at: NOW.toISOString(),
        session_id: null,
        task_slug: 'auth',
      },
      {
        id: 'bm_1',
        message: 'a',
        salience: 1,
        created_at: NOW.toISOString(),
        session_id: null,
        task_slug: null,
      },
    ])
    expect(clearBookmarks(two).bookmarks).toEqual([])
    expect(two.bookmarks).toHaveLength(2)
  })

  it.each([0, 4, 5, 2.5])('refuses salience %s', (salience) => {
    const add = () => addBookmark(freshSleepState(), { id: 'b', message: 'a', salience, now: NOW })
    expectError(add, 'USAGE', 'Salience must be 1, 2 or 3')
  })

  it('parses salience from text', () => {
    expect(parseSalience('3')).toBe(3)
    expectError(() => parseSalience('high'), 'USAGE', 'got high')
    expectError(() => parseSalience(''), 'USAGE', 'Salience')
  })

  it('requires a message', () => {
    const add = () =>
      addBookmark(freshSleepState(), { id: 'b', message: '', salience: 2, now: NOW })
    expectError(add, 'USAGE', 'needs a message')
  })
})

describe('triggers', () => {
  it('appends with max_fires 3 by default and lists only active ones', () => {
    const one = addTrigger(freshSleepState(), {
      id: 'trg_1',
      when: 'auth',
      remind: 'refresh',
      now: NOW,
    })
    const two = addTrigger(one, {
      id: 'trg_2',
      when: 'db',
      remind: 'migrate',
      maxFires: 5,
      source: 'PR 9',
      now: NOW,
    })
    expect(
      two.triggers.map((entry) => [entry.id, entry.max_fires, entry.fired_count, entry.source]),
    ).toEqual([
      ['trg_1', 3, 0, null],
      ['trg_2', 5, 0, 'PR 9'],
    ])
    const spent = { ...two, triggers: [trigger('a', 3, 3), trigger('b', 2, 3)] }
    expect(activeTriggers(spent).map((entry) => entry.id)).toEqual(['b'])
  })

  it('refuses a bad max-fires or empty text', () => {
    const base = { id: 't', when: 'auth', remind: 'x', now: NOW }
    expectError(
      () => addTrigger(freshSleepState(), { ...base, maxFires: 0 }),
      'USAGE',
      '--max-fires',
    )
    expectError(() => addTrigger(freshSleepState(), { ...base, remind: ' ' }), 'USAGE', 'reminder')
  })

  it('removes by id, and an unknown id names `somnus trigger list`', () => {
    const state = { ...freshSleepState(), triggers: [trigger('a', 0, 3), trigger('b', 0, 3)] }
    expect(removeTrigger(state, 'a').triggers.map((entry) => entry.id)).toEqual(['b'])
    expectError(() => removeTrigger(state, 'zzz'), 'NOT_FOUND', 'somnus trigger list')
  })
})

describe('touchKnowledge and recomputeDebt', () => {
  it('records the access date and counts accesses', () => {
    const once = touchKnowledge(freshSleepState(), 'jwt', NOW)
    const twice = touchKnowledge(once, 'jwt', new Date('2026-03-05T01:00:00.000Z'))
    expect(once.knowledge_access.jwt).toEqual({ last_accessed: '2026-03-01', count: 1 })
    expect(twice.knowledge_access.jwt).toEqual({ last_accessed: '2026-03-05', count: 2 })
  })

  it('sets debt to the sum of scores, pending scores counting 0', () => {
    const state = {
      ...freshSleepState(),
      debt: 99,
      sessions: [session('a', null, 2), session('b', null, null), session('c', null, 3)],
    }
    expect(recomputeDebt(state).debt).toBe(5)
  })
})
