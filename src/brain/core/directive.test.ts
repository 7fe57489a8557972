import { describe, expect, it } from 'vitest'
import type { ScoringPolicy } from '../../engine/core/scoring/scoring-policy.ts'
import { consolidationDirective } from './directive.ts'
import { calibratedScoringPolicy } from './scoring/calibrated-scoring-policy.ts'
import { seedScoringPolicy } from './scoring/seed-scoring-policy.ts'
import { type Bookmark, freshSleepState, type SleepState } from './sleep-state.ts'

const NOW = new Date('2026-03-01T12:00:00.000Z')

function bookmark(salience: 1 | 2 | 3, message: string): Bookmark {
  return {
    id: `bm_${message}`,
    message,
    salience,
    created_at: '2026-03-01T10:00:00.000Z',
    session_id: null,
    task_slug: null,
  }
}

function directive(
  overrides: Partial<SleepState>,
  policy: ScoringPolicy = seedScoringPolicy,
  rhythmSessions = 5,
): string | null {
  const state = { ...freshSleepState(), ...overrides }
  return consolidationDirective({ state, policy, now: NOW, rhythmSessions })
}

describe('consolidationDirective with the seed policy', () => {
  it('says nothing for a rested brain', () => {
    expect(directive({ debt: 0 })).toBeNull()
    expect(directive({ debt: 3, sessions_since_last_sleep: 4 })).toBeNull()
  })

  it('requires consolidation at debt >= 10 (seed 000: CRITICAL directive)', () => {
    const text = directive({ debt: 10, bookmarks: [bookmark(3, 'a'), bookmark(1, 'b')] })
    expect(text).not.toBeNull()
    const lines = text?.split('\n') ?? []
    expect(lines[0]).toBe('>>> CONSOLIDATION REQUIRED <<<')
    expect(text).toContain('Sleep debt is 10 (Must Sleep')
    expect(text).toContain('1 critical (★★★) bookmark(s)')
    expect(text).toContain('tell the user')
    expect(text).toContain('somnus-rem-sleep')
    expect(text).toContain('urgent task')
    expect(text).toContain('This session continues after sleep')
    expect(text).toContain('somnus sleep done')
  })

  it('leaves out the bookmark count when there is no critical bookmark', () => {
    expect(directive({ debt: 12 })).not.toContain('bookmark')
  })

  it('lists up to 3 critical bookmarks below the must-sleep level', () => {
    const bookmarks = ['one', 'two', 'three', 'four'].map((message) => bookmark(3, message))
    const text = directive({ debt: 0, bookmarks: [bookmark(2, 'minor'), ...bookmarks] })
    expect(text?.split('\n')[0]).toBe('>> CRITICAL BOOKMARKS NEED CONSOLIDATION <<')
    expect(text).toContain('4 critical (★★★) bookmark(s)')
    expect(text).toContain('  - one\n  - two\n  - three')
    expect(text).not.toContain('  - four')
    expect(text).not.toContain('minor')
    expect(text).toContain('... and 1 more')
    expect(text).toContain('somnus sleep start')
  })

  it('prefers the critical-bookmark advisory over the debt advisory', () => {
    expect(directive({ debt: 8, bookmarks: [bookmark(3, 'x')] })).toContain('CRITICAL BOOKMARKS')
  })

  it('recommends consolidation at debt >= 7 (seed 000: softer advisory)', () => {
    const text = directive({ debt: 7 })
    expect(text?.split('\n')[0]).toBe('>> CONSOLIDATION RECOMMENDED <<')
    expect(text).toContain('Sleep debt is 7 (Sleepy')
    expect(text).toContain('somnus sleep start')
    expect(directive({ debt: 9 })).toContain('RECOMMENDED')
  })

  it('asks to offer consolidation after the current task at debt 4-6', () => {
    const text = directive({ debt: 4 })
    expect(text).toMatch(/^> Sleep debt is 4 \(Drowsy\)\. After the current task, offer/)
    expect(text?.split('\n')).toHaveLength(1)
    expect(text).toContain('somnus sleep status')
  })

  it('reminds of the rhythm after rhythmSessions sessions', () => {
    expect(directive({ debt: 2, sessions_since_last_sleep: 4 })).toBeNull()
    const text = directive({ debt: 2, sessions_since_last_sleep: 5 })
    expect(text).toContain('5 sessions since the last sleep (rhythm: every 5)')
    expect(text).toContain('somnus-rem-sleep')
    expect(directive({ debt: 0, sessions_since_last_sleep: 3 }, seedScoringPolicy, 3)).toContain(
      'rhythm: every 3',
    )
  })

  it('only warns against a second sleep while one is in progress', () => {
    const started = '2026-03-01T11:50:00.000Z'
    const text = directive({ debt: 15, sleep_started_at: started, bookmarks: [bookmark(3, 'x')] })
    expect(text).toBe(
      `> Consolidation already in progress (started ${started}): do not dispatch another sleep agent; it ends with \`somnus sleep done\`.`,
    )
    expect(directive({ debt: 4, sleep_started_at: started })).toContain('already in progress')
    expect(
      directive({ debt: 3, sleep_started_at: started, bookmarks: [bookmark(3, 'x')] }),
    ).toBeNull()
  })

  it('treats a sleep started over 3 hours ago as abandoned, so directives speak again', () => {
    const abandoned = '2026-03-01T08:59:00.000Z'
    expect(directive({ debt: 15, sleep_started_at: abandoned })).toContain('CONSOLIDATION REQUIRED')
    const recent = '2026-03-01T09:01:00.000Z'
    expect(directive({ debt: 15, sleep_started_at: recent })).toContain('already in progress')
  })

  it('has no cooldown: a fresh sleep does not silence the seed policy', () => {
    const text = directive({ debt: 10, last_consolidated_at: '2026-03-01T11:59:00.000Z' })
    expect(text).toContain('CONSOLIDATION REQUIRED')
  })
})

describe('consolidationDirective with the calibrated policy', () => {
  const recent = '2026-03-01T10:00:00.000Z' // 2 hours before NOW: inside the 3-hour cooldown
  const old = '2026-03-01T08:59:00.000Z' // 3 h 1 min before NOW: cooldown over

  it('uses the policy thresholds 24 / 40 / 60', () => {
    expect(directive({ debt: 23 }, calibratedScoringPolicy)).toBeNull()
    expect(directive({ debt: 24 }, calibratedScoringPolicy)).toContain('(Drowsy)')
    expect(directive({ debt: 40 }, calibratedScoringPolicy)).toContain('RECOMMENDED')
    expect(directive({ debt: 60 }, calibratedScoringPolicy)).toContain('REQUIRED')
    expect(directive({ debt: 60 }, calibratedScoringPolicy)).toContain('threshold 60')
  })

  it('stays quiet during the cooldown after a sleep', () => {
    expect(
      directive({ debt: 70, last_consolidated_at: recent }, calibratedScoringPolicy),
    ).toBeNull()
    const rhythm = { debt: 0, sessions_since_last_sleep: 20, last_consolidated_at: recent }
    expect(directive(rhythm, calibratedScoringPolicy, 12)).toBeNull()
  })

  it('speaks again once the cooldown is over', () => {
    const text = directive({ debt: 70, last_consolidated_at: old }, calibratedScoringPolicy)
    expect(text).toContain('REQUIRED')
  })

  it('breaks the cooldown at debt >= 120 or for a critical bookmark', () => {
    const overdue = directive({ debt: 120, last_consolidated_at: recent }, calibratedScoringPolicy)
    expect(overdue).toContain('REQUIRED')
    const critical = { debt: 5, last_consolidated_at: recent, bookmarks: [bookmark(3, 'key')] }
    expect(directive(critical, calibratedScoringPolicy)).toContain('CRITICAL BOOKMARKS')
  })
})

describe('consolidationDirective when the project copy of the agent is not Somnus', () => {
  it('never tells Claude to dispatch it, at any level: `somnus sleep run` instead', () => {
    const states: Partial<SleepState>[] = [
      { debt: 10 },
      { debt: 1, bookmarks: [bookmark(3, 'a')] },
      { debt: 7 },
      { debt: 4 },
      { debt: 0, sessions_since_last_sleep: 9 },
    ]
    for (const overrides of states) {
      const state = { ...freshSleepState(), ...overrides }
      const text = consolidationDirective({
        state,
        policy: seedScoringPolicy,
        now: NOW,
        rhythmSessions: 5,
        dispatchAgent: false,
      })
      expect(text, JSON.stringify(overrides)).not.toBeNull()
      expect(text).not.toMatch(/(?<!not )dispatch the somnus-rem-sleep/i)
      expect(text).toContain('somnus sleep run')
    }
  })
})
