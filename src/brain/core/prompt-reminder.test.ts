import { describe, expect, it } from 'vitest'
import { promptReminder } from './prompt-reminder.ts'
import { calibratedScoringPolicy } from './scoring/calibrated-scoring-policy.ts'
import { seedScoringPolicy } from './scoring/seed-scoring-policy.ts'
import { type Bookmark, freshSleepState, type SleepState } from './sleep-state.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')

function state(overrides: Partial<SleepState>): SleepState {
  return { ...freshSleepState(), ...overrides }
}

function critical(id: string): Bookmark {
  return {
    id,
    message: 'never log tokens',
    salience: 3,
    created_at: NOW.toISOString(),
    session_id: null,
    task_slug: null,
  }
}

describe('promptReminder', () => {
  const seed = (overrides: Partial<SleepState>) =>
    promptReminder({ state: state(overrides), policy: seedScoringPolicy, now: NOW })

  it('stays silent below Drowsy without a ★★★ bookmark', () => {
    expect(seed({ debt: 3 })).toBeNull()
  })

  it('names the debt and level from Drowsy on', () => {
    expect(seed({ debt: 4 })).toBe(
      '[somnus] Sleep debt 4 (Drowsy): after the current task, offer to consolidate.',
    )
    expect(seed({ debt: 11 })).toMatch(/^\[somnus\] Sleep debt 11 \(Must Sleep\)/)
  })

  it('mentions ★★★ bookmarks at any debt, on the same line', () => {
    expect(seed({ debt: 0, bookmarks: [critical('a'), critical('b')] })).toBe(
      '[somnus] 2 critical (★★★) bookmarks waiting for consolidation.',
    )
    expect(seed({ debt: 5, bookmarks: [critical('a')] })).toMatch(
      /offer to consolidate; 1 critical/,
    )
  })

  it('says a sleep is already running instead of asking for another', () => {
    const running = NOW.toISOString()
    expect(seed({ debt: 9, sleep_started_at: running })).toMatch(/already in progress/)
    expect(seed({ debt: 1, sleep_started_at: running })).toBeNull()
  })

  it('keeps quiet in the calibrated policy cooldown unless debt or a ★★★ bookmark bypasses it', () => {
    const calibrated = (overrides: Partial<SleepState>) =>
      promptReminder({ state: state(overrides), policy: calibratedScoringPolicy, now: NOW })
    const anHourAgo = new Date(NOW.getTime() - 3_600_000).toISOString()
    expect(calibrated({ debt: 30, last_consolidated_at: anHourAgo })).toBeNull()
    expect(calibrated({ debt: 130, last_consolidated_at: anHourAgo })).toMatch(/Sleep debt 130/)
    expect(
      calibrated({ debt: 30, last_consolidated_at: anHourAgo, bookmarks: [critical('a')] }),
    ).toMatch(/Sleep debt 30 \(Drowsy\)/)
  })
})
