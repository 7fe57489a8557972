/** Seed 000's scoring, the default: 0-3 per session, levels at 4 / 7 / 10. */
import type { ScoringPolicy, SessionMetrics } from '../../../engine/core/scoring/scoring-policy.ts'

/**
 * 0 changes → 0, 1-3 → 1, 4-8 → 2, 9+ → 3 (seed 000, `scoreFromChangeCount`,
 * docs/design/origins.md).
 */
export function scoreFromChangeCount(changes: number): number {
  if (changes <= 0) return 0
  if (changes <= 3) return 1
  if (changes <= 8) return 2
  return 3
}

/** 0 tools → 0, 1-15 → 1, 16-40 → 2, 41+ → 3 (seed 000, `scoreFromToolCount`). */
export function scoreFromToolCount(tools: number): number {
  if (tools <= 0) return 0
  if (tools <= 15) return 1
  if (tools <= 40) return 2
  return 3
}

/** Seed 000: session score = max(change score, tool score); Drowsy 4, Sleepy 7, Must Sleep 10. */
export const seedScoringPolicy: ScoringPolicy = {
  name: 'seed',
  maxSessionScore: 3,
  maxManualScore: 3,
  thresholds: { drowsy: 4, sleepy: 7, mustSleep: 10 },
  cooldownMinutes: 0,
  cooldownBypassDebt: 0,
  scoreSession: (metrics: SessionMetrics) =>
    Math.max(scoreFromChangeCount(metrics.change_count), scoreFromToolCount(metrics.tool_count)),
}
