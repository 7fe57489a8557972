import { describe, expect, it } from 'vitest'
import { levelFor } from '../../../engine/core/scoring/scoring-policy.ts'
import { testScoringPolicy, ZERO_METRICS } from '../../../engine/ports/scoring-policy.contract.ts'
import {
  calibratedRawScore,
  calibratedScoringPolicy,
  logPoints,
  substancePoints,
} from './calibrated-scoring-policy.ts'
import { scoringPolicyFor } from './scoring-policies.ts'
import {
  scoreFromChangeCount,
  scoreFromToolCount,
  seedScoringPolicy,
} from './seed-scoring-policy.ts'

testScoringPolicy({ name: 'seed', make: async () => seedScoringPolicy })
testScoringPolicy({ name: 'calibrated', make: async () => calibratedScoringPolicy })

describe('scoringPolicyFor', () => {
  it('returns the policy of each configured name', () => {
    expect(scoringPolicyFor('seed')).toBe(seedScoringPolicy)
    expect(scoringPolicyFor('calibrated')).toBe(calibratedScoringPolicy)
  })
})

describe('seed policy (seed 000 acceptance criteria)', () => {
  it.each([
    [0, 0],
    [1, 1],
    [3, 1],
    [4, 2],
    [8, 2],
    [9, 3],
    [500, 3],
  ])('scoreFromChangeCount(%i) = %i', (changes, score) => {
    expect(scoreFromChangeCount(changes)).toBe(score)
  })

  it.each([
    [0, 0],
    [1, 1],
    [15, 1],
    [16, 2],
    [40, 2],
    [41, 3],
    [5000, 3],
  ])('scoreFromToolCount(%i) = %i', (tools, score) => {
    expect(scoreFromToolCount(tools)).toBe(score)
  })

  it.each([
    [0, 0, 0],
    [7, 35, 2],
    [0, 35, 2],
    [9, 2, 3],
    [2, 41, 3],
    [1, 0, 1],
  ])('session score with %i changes and %i tools is max of both = %i', (changes, tools, score) => {
    const metrics = { ...ZERO_METRICS, change_count: changes, tool_count: tools }
    expect(seedScoringPolicy.scoreSession(metrics)).toBe(score)
  })

  it('ignores tokens and substance, which seed 000 does not score', () => {
    const metrics = { ...ZERO_METRICS, novel_tokens: 9_000_000, user_turns: 40 }
    expect(seedScoringPolicy.scoreSession(metrics)).toBe(0)
  })

  it.each([
    [0, 'Alert'],
    [3, 'Alert'],
    [4, 'Drowsy'],
    [6, 'Drowsy'],
    [7, 'Sleepy'],
    [9, 'Sleepy'],
    [10, 'Must Sleep'],
    [25, 'Must Sleep'],
  ] as const)('debt %i is %s', (debt, level) => {
    expect(levelFor(seedScoringPolicy, debt)).toBe(level)
  })

  it('accepts manual scores 1-3 and has no cooldown', () => {
    expect(seedScoringPolicy.maxManualScore).toBe(3)
    expect(seedScoringPolicy.cooldownMinutes).toBe(0)
  })
})

describe('calibrated policy (dreamcontext scoring version 2)', () => {
  it('gives each axis its full weight at its full point and never more', () => {
    expect(logPoints(3_500_000, 100_000, 3_500_000, 4)).toBeCloseTo(4, 10)
    expect(logPoints(40, 2, 40, 3)).toBeCloseTo(3, 10)
    expect(logPoints(200, 10, 200, 1.5)).toBeCloseTo(1.5, 10)
    expect(logPoints(1e12, 100_000, 3_500_000, 4)).toBe(4)
    expect(logPoints(0, 2, 40, 3)).toBe(0)
  })

  it('compresses large inputs: one k-unit is worth 1/log2(1+full/k) of the weight', () => {
    // 100k tokens: 4 / log2(36) = 0.7737...
    expect(logPoints(100_000, 100_000, 3_500_000, 4)).toBeCloseTo(4 / Math.log2(36), 10)
    expect(logPoints(100_000, 100_000, 3_500_000, 4)).toBeCloseTo(0.7737, 3)
  })

  it('adds the stepped substance bonus, at most 1.5', () => {
    expect(substancePoints(ZERO_METRICS)).toBe(0)
    expect(substancePoints({ ...ZERO_METRICS, user_turns: 8 })).toBeCloseTo(0.4)
    expect(substancePoints({ ...ZERO_METRICS, user_turns: 7 })).toBe(0)
    expect(substancePoints({ ...ZERO_METRICS, assistant_chars: 25_000 })).toBeCloseTo(0.4)
    expect(substancePoints({ ...ZERO_METRICS, decision_markers: 4 })).toBeCloseTo(0.35)
    expect(substancePoints({ ...ZERO_METRICS, task_slugs: 2 })).toBeCloseTo(0.35)
    const all = { user_turns: 8, assistant_chars: 25_000, decision_markers: 4, task_slugs: 2 }
    expect(substancePoints({ ...ZERO_METRICS, ...all })).toBeCloseTo(1.5)
  })

  it('rounds the sum to a whole score', () => {
    // 0.774 (tokens) + 0.683 (changes) + 0.341 (tools) = 1.798 -> 2
    const light = { ...ZERO_METRICS, novel_tokens: 100_000, change_count: 2, tool_count: 10 }
    expect(calibratedRawScore(light)).toBeCloseTo(1.798, 2)
    expect(calibratedScoringPolicy.scoreSession(light)).toBe(2)
    // A question-only session with a few thousand tokens books nothing.
    expect(calibratedScoringPolicy.scoreSession({ ...ZERO_METRICS, novel_tokens: 5_000 })).toBe(0)
  })

  it('scores a heavy session 10 where the seed policy saturates at 3', () => {
    const heavy = {
      change_count: 40,
      tool_count: 200,
      novel_tokens: 3_500_000,
      user_turns: 8,
      assistant_chars: 25_000,
      decision_markers: 4,
      task_slugs: 2,
    }
    expect(calibratedScoringPolicy.scoreSession(heavy)).toBe(10)
    expect(seedScoringPolicy.scoreSession(heavy)).toBe(3)
  })

  it('uses levels 24 / 40 / 60, a 180-minute cooldown bypassed at 120, manual scores to 10', () => {
    expect(calibratedScoringPolicy.thresholds).toEqual({ drowsy: 24, sleepy: 40, mustSleep: 60 })
    expect(levelFor(calibratedScoringPolicy, 23)).toBe('Alert')
    expect(levelFor(calibratedScoringPolicy, 24)).toBe('Drowsy')
    expect(levelFor(calibratedScoringPolicy, 40)).toBe('Sleepy')
    expect(levelFor(calibratedScoringPolicy, 60)).toBe('Must Sleep')
    expect(calibratedScoringPolicy.cooldownMinutes).toBe(180)
    expect(calibratedScoringPolicy.cooldownBypassDebt).toBe(120)
    expect(calibratedScoringPolicy.maxManualScore).toBe(10)
  })
})
