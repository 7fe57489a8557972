import { describe, expect, it } from 'vitest'
import {
  countAction,
  decideSleep,
  FATIGUE_WARNING_TEXT,
  fatigueLevel,
  isDeepSleep,
  sleepSeconds,
} from './fatigue.ts'
import { MIND_DEFAULTS, resolveMindConfig } from './mind-config.ts'
import { initialMindState, type MindState } from './mind-state.ts'

const config = resolveMindConfig()
const NOW = new Date('2026-02-12T10:00:00Z')
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString()

function countActions(actions: number, state: MindState = initialMindState()) {
  const warnings: number[] = []
  let current = state
  let exhaustedAt: number | null = null
  for (let action = 1; action <= actions; action += 1) {
    const outcome = countAction(current, config)
    current = outcome.state
    if (outcome.warning) warnings.push(action)
    if (outcome.exhausted && exhaustedAt === null) exhaustedAt = action
  }
  return { state: current, warnings, exhaustedAt }
}

describe('fatigue', () => {
  it('has the seed defaults', () => {
    expect(MIND_DEFAULTS).toMatchObject({
      fatigueWarning: 60,
      fatigueLimit: 80,
      minDreamIntervalMs: 600_000,
      quickNapSeconds: 30,
      deepSleepEvery: 10,
      deepSleepPauseSeconds: 300,
      keepRecentMessages: 20,
      maxContextChars: 100_000,
    })
  })

  it('warns once, at the 60th action, and is exhausted at the 80th', () => {
    const run = countActions(85)
    expect(run.warnings).toEqual([60])
    expect(run.exhaustedAt).toBe(80)
    expect(countAction(countActions(59).state, config).warning).toBe(FATIGUE_WARNING_TEXT)
    expect(countAction(countActions(58).state, config).warning).toBeNull()
    expect(countAction(countActions(78).state, config).exhausted).toBe(false)
  })

  it('follows configured thresholds', () => {
    const small = resolveMindConfig({ fatigueWarning: 2, fatigueLimit: 3 })
    let state = initialMindState()
    const seen: string[] = []
    for (let action = 1; action <= 3; action += 1) {
      const outcome = countAction(state, small)
      state = outcome.state
      seen.push(outcome.exhausted ? 'exhausted' : outcome.warning ? 'warned' : 'ok')
    }
    expect(seen).toEqual(['ok', 'warned', 'exhausted'])
  })

  it('names the fatigue level', () => {
    expect(fatigueLevel(59, config)).toBe('rested')
    expect(fatigueLevel(60, config)).toBe('tired')
    expect(fatigueLevel(80, config)).toBe('exhausted')
  })

  it('refuses settings that cannot work', () => {
    expect(() => resolveMindConfig({ fatigueWarning: 90 })).toThrow(/must not exceed/)
    expect(() => resolveMindConfig({ deepSleepEvery: 0 })).toThrow(/at least 1/)
    expect(() => resolveMindConfig({ fatigueLimt: 3 } as never)).toThrow(
      /Unknown mind setting "fatigueLimt"/,
    )
    expect(() => resolveMindConfig({ fatigueLimit: -1 })).toThrow(/a number >= 0/)
  })
})

describe('voluntary sleep', () => {
  const busy: MindState = { ...initialMindState(), actionsSinceDream: 20, messagesSinceDream: 20 }
  const decide = (state: MindState, seconds: number, forced = false, newLines = 40) =>
    decideSleep(state, config, { seconds, forced, now: NOW, newLines }).consolidation

  it('consolidates at 30 s or more; a shorter nap only pauses', () => {
    expect(decide(busy, 29)).toBe('none')
    expect(decide(busy, 30)).toBe('full')
    expect(decide(busy, 3_600)).toBe('full')
  })

  it('consolidates only 10 minutes or more after the last dream', () => {
    expect(decide({ ...busy, lastDreamAt: minutesAgo(9.99) }, 300)).toBe('none')
    expect(decide({ ...busy, lastDreamAt: minutesAgo(10) }, 300)).toBe('full')
    expect(
      decideSleep({ ...busy, lastDreamAt: minutesAgo(5) }, config, {
        seconds: 300,
        forced: false,
        now: NOW,
        newLines: 3,
      }).reason,
    ).toMatch(/300 s ago/)
  })

  it('a forced sleep consolidates whatever the nap and interval rules say', () => {
    expect(decide({ ...busy, lastDreamAt: minutesAgo(1) }, 2, true)).toBe('full')
  })

  it('nothing new: nothing to consolidate; few actions and messages: a light dream', () => {
    const idle = initialMindState()
    expect(decide(idle, 300, false, 0)).toBe('none')
    expect(decide({ ...idle, actionsSinceDream: 4, messagesSinceDream: 9 }, 300)).toBe('light')
    expect(decide({ ...idle, actionsSinceDream: 5, messagesSinceDream: 0 }, 300)).toBe('full')
    expect(decide({ ...idle, actionsSinceDream: 0, messagesSinceDream: 10 }, 300)).toBe('full')
  })
})

describe('deep sleep and sleep length', () => {
  it('every 10th dream is deep', () => {
    const deep = Array.from({ length: 30 }, (_, index) => index + 1).filter((number) =>
      isDeepSleep(number, config),
    )
    expect(deep).toEqual([10, 20, 30])
    expect(isDeepSleep(5, resolveMindConfig({ deepSleepEvery: 5 }))).toBe(true)
  })

  it('forced and deep sleeps last at least the 300 s pause', () => {
    expect(sleepSeconds(60, config, { forced: false, deep: false })).toBe(60)
    expect(sleepSeconds(60, config, { forced: false, deep: true })).toBe(300)
    expect(sleepSeconds(60, config, { forced: true, deep: false })).toBe(300)
    expect(sleepSeconds(900, config, { forced: true, deep: true })).toBe(900)
  })
})
