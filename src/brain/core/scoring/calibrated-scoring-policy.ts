/**
 * dreamcontext's calibrated scoring (scoring version 2, research/seed-systems.md 1.10): seed 000's
 * 0-3 cap saturated for 77% of 395 real sessions, so each session now scores 0-10 on log-scaled
 * axes, with levels at 24 / 40 / 60 and a 3-hour quiet period after a sleep.
 */
import type { ScoringPolicy, SessionMetrics } from '../../../engine/core/scoring/scoring-policy.ts'

/** The most one session can book under this policy. */
const SESSION_SCORE_MAX = 10

/**
 * Points for one axis: grows with log2(1 + x/k), reaching `weight` at `full` and never beyond,
 * so a session's first tokens count more than its ten-millionth.
 */
export function logPoints(value: number, k: number, full: number, weight: number): number {
  if (!(value > 0)) return 0
  return Math.min(weight, (weight * Math.log2(1 + value / k)) / Math.log2(1 + full / k))
}

/** Stepped bonus, at most 1.5, for signs of substance that raw volume misses. */
export function substancePoints(metrics: SessionMetrics): number {
  let points = 0
  if (metrics.user_turns >= 8) points += 0.4
  if (metrics.assistant_chars >= 25_000) points += 0.4
  if (metrics.decision_markers >= 4) points += 0.35
  if (metrics.task_slugs >= 2) points += 0.35
  return points
}

/** The unrounded sum of all axes, exposed for tests and explanations. */
export function calibratedRawScore(metrics: SessionMetrics): number {
  return (
    logPoints(metrics.novel_tokens, 100_000, 3_500_000, 4) +
    logPoints(metrics.change_count, 2, 40, 3) +
    logPoints(metrics.tool_count, 10, 200, 1.5) +
    substancePoints(metrics)
  )
}

/** Calibrated policy: integer 0-10 per session; Drowsy 24, Sleepy 40, Must Sleep 60. */
export const calibratedScoringPolicy: ScoringPolicy = {
  name: 'calibrated',
  maxSessionScore: SESSION_SCORE_MAX,
  maxManualScore: SESSION_SCORE_MAX,
  thresholds: { drowsy: 24, sleepy: 40, mustSleep: 60 },
  cooldownMinutes: 180,
  cooldownBypassDebt: 120,
  scoreSession: (metrics) => Math.min(SESSION_SCORE_MAX, Math.round(calibratedRawScore(metrics))),
}
