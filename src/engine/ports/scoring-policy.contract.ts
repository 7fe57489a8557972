/** The behaviour every `ScoringPolicy` must show; each policy's test runs this suite. */
import fc from 'fast-check'
import { beforeAll, expect, it } from 'vitest'
import {
  levelFor,
  type ScoringPolicy,
  type SessionMetrics,
} from '../core/scoring/scoring-policy.ts'
import { type ContractOptions, describeContract } from './describe-contract.contract.ts'

/** A session that did nothing. */
export const ZERO_METRICS: SessionMetrics = {
  change_count: 0,
  tool_count: 0,
  novel_tokens: 0,
  user_turns: 0,
  assistant_chars: 0,
  decision_markers: 0,
  task_slugs: 0,
}

const METRIC_NAMES = Object.keys(ZERO_METRICS) as (keyof SessionMetrics)[]

// Ranges wide enough to cross every bucket and cap of both shipped policies.
const metricsArbitrary = fc.record({
  change_count: fc.nat({ max: 200 }),
  tool_count: fc.nat({ max: 1_000 }),
  novel_tokens: fc.nat({ max: 20_000_000 }),
  user_turns: fc.nat({ max: 50 }),
  assistant_chars: fc.nat({ max: 200_000 }),
  decision_markers: fc.nat({ max: 20 }),
  task_slugs: fc.nat({ max: 10 }),
})

/** Registers the contract tests for the policy `make` gives (called once). */
export function testScoringPolicy(options: ContractOptions<ScoringPolicy>): void {
  describeContract('ScoringPolicy', options, () => {
    let policy: ScoringPolicy
    beforeAll(async () => {
      policy = await options.make()
    })

    it('scores a session that did nothing as 0', () => {
      expect(policy.scoreSession(ZERO_METRICS)).toBe(0)
    })

    it('always scores a whole number from 0 to maxSessionScore', () => {
      fc.assert(
        fc.property(metricsArbitrary, (metrics) => {
          const score = policy.scoreSession(metrics)
          return Number.isInteger(score) && score >= 0 && score <= policy.maxSessionScore
        }),
      )
    })

    it('never scores less when any one metric grows', () => {
      fc.assert(
        fc.property(
          metricsArbitrary,
          fc.constantFrom(...METRIC_NAMES),
          fc.nat({ max: 5_000_000 }),
          (metrics, name, extra) => {
            const more = { ...metrics, [name]: metrics[name] + extra }
            return policy.scoreSession(more) >= policy.scoreSession(metrics)
          },
        ),
      )
    })

    it('reaches its maximum score for a very heavy session', () => {
      const heavy: SessionMetrics = {
        change_count: 1_000,
        tool_count: 10_000,
        novel_tokens: 100_000_000,
        user_turns: 100,
        assistant_chars: 1_000_000,
        decision_markers: 100,
        task_slugs: 10,
      }
      expect(policy.scoreSession(heavy)).toBe(policy.maxSessionScore)
    })

    it('orders its thresholds and maps debt to levels mildest first', () => {
      const { drowsy, sleepy, mustSleep } = policy.thresholds
      expect(0).toBeLessThan(drowsy)
      expect(drowsy).toBeLessThan(sleepy)
      expect(sleepy).toBeLessThan(mustSleep)
      expect(levelFor(policy, 0)).toBe('Alert')
      expect(levelFor(policy, drowsy - 1)).toBe('Alert')
      expect(levelFor(policy, drowsy)).toBe('Drowsy')
      expect(levelFor(policy, sleepy - 1)).toBe('Drowsy')
      expect(levelFor(policy, sleepy)).toBe('Sleepy')
      expect(levelFor(policy, mustSleep - 1)).toBe('Sleepy')
      expect(levelFor(policy, mustSleep)).toBe('Must Sleep')
      expect(levelFor(policy, mustSleep * 10)).toBe('Must Sleep')
    })

    it('accepts manual scores within what one session can book', () => {
      expect(policy.maxManualScore).toBeGreaterThanOrEqual(1)
      expect(policy.maxManualScore).toBeLessThanOrEqual(policy.maxSessionScore)
      expect(policy.cooldownMinutes).toBeGreaterThanOrEqual(0)
    })
  })
}
