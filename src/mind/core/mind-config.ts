/**
 * A creature's tuning (seed 004's constants, every one configurable, docs/design/origins.md). The
 * defaults are the seed's numbers; the few that the seed does not name come from OpenSeed's public
 * code (research §4).
 */
import { SomnusError } from '../../engine/core/errors.ts'

/** Every number and name the sleep cycle runs on. */
export interface MindConfig {
  /** Actions (tool calls) before the tiredness warning (seed: FATIGUE_WARNING). */
  fatigueWarning: number
  /** Actions before forced consolidation and sleep (seed: FATIGUE_LIMIT). */
  fatigueLimit: number
  /** Least time between two dreams; a sleep sooner only pauses (seed: MIN_DREAM_INTERVAL_MS). */
  minDreamIntervalMs: number
  /** Sleeps shorter than this only pause (seed: QUICK_NAP_THRESHOLD, 30 s). */
  quickNapSeconds: number
  /** Every Nth dream is a deep sleep (seed: DEEP_SLEEP_EVERY; the public code later moved to 5). */
  deepSleepEvery: number
  /** Least pause of a deep sleep, and the length of a forced (fatigue) sleep (seed: DEEP_SLEEP_PAUSE). */
  deepSleepPauseSeconds: number
  /** Messages kept in context after a trim (seed: KEEP_RECENT_MESSAGES). */
  keepRecentMessages: number
  /** Emergency limit of the in-context window in characters (seed: MAX_CONTEXT_CHARS). */
  maxContextChars: number
  /** A cycle with fewer actions than this (and few messages) gets a light consolidation, no model call. */
  lightConsolidationActions: number
  /** ...and fewer messages than this. Chat-only cycles have no actions but plenty to consolidate. */
  lightConsolidationMessages: number
  /** Model calls per consolidation before it is recorded as failed (1 + retries). */
  consolidationAttempts: number
  /** GRN observations older than this are pruned in deep sleep (seed: 48 h). */
  greenMaxAgeHours: number
  /** Priorities rewritten in deep sleep: at most this many (seed: top 3-5). */
  maxPriorities: number
  /** Observation lines shown in the wake message, at most. */
  wakeObservations: number
  /**
   * Tokens the wake message spends on recent observations (standing orders and open priorities
   * are always shown, outside it).
   */
  wakeBudgetTokens: number
  /** Tokens of the activity a model consolidation is sent, at most (long outputs are clipped first). */
  promptBudgetTokens: number
  /** Characters of one message kept in conversation.jsonl (public code: 10,000). */
  maxLoggedChars: number
  /** Share of the cycle's tokens the extractive consolidation may spend on observations. */
  observationShare: number
  /** Sleeps are refused outside this range of seconds (public code: 2-86,400). */
  minSleepSeconds: number
  maxSleepSeconds: number
  /** The file the wake message tells the creature to check for its creator's words; null: none. */
  creatorMessagesFile: string | null
}

/** Seed 004's defaults. */
export const MIND_DEFAULTS: Readonly<MindConfig> = Object.freeze({
  fatigueWarning: 60,
  fatigueLimit: 80,
  minDreamIntervalMs: 10 * 60_000,
  quickNapSeconds: 30,
  deepSleepEvery: 10,
  deepSleepPauseSeconds: 300,
  keepRecentMessages: 20,
  maxContextChars: 100_000,
  lightConsolidationActions: 5,
  lightConsolidationMessages: 10,
  consolidationAttempts: 2,
  greenMaxAgeHours: 48,
  maxPriorities: 5,
  wakeObservations: 20,
  wakeBudgetTokens: 1_500,
  promptBudgetTokens: 60_000,
  maxLoggedChars: 10_000,
  observationShare: 0.24,
  minSleepSeconds: 2,
  maxSleepSeconds: 86_400,
  creatorMessagesFile: 'MESSAGES.md',
})

/** The defaults with `overrides` applied, every number checked. */
export function resolveMindConfig(overrides: Partial<MindConfig> = {}): MindConfig {
  const config: MindConfig = { ...MIND_DEFAULTS }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue
    if (!(key in MIND_DEFAULTS)) {
      throw new SomnusError(
        'INVALID_INPUT',
        `Unknown mind setting "${key}". Known settings: ${Object.keys(MIND_DEFAULTS).join(', ')}.`,
      )
    }
    const expected = key === 'creatorMessagesFile' ? 'string-or-null' : 'number'
    const valid =
      expected === 'number'
        ? typeof value === 'number' && Number.isFinite(value) && value >= 0
        : value === null || typeof value === 'string'
    if (!valid) {
      throw new SomnusError(
        'INVALID_INPUT',
        `Mind setting "${key}" must be ${expected === 'number' ? 'a number >= 0' : 'a file name or null'} (got ${JSON.stringify(value)}).`,
      )
    }
    Object.assign(config, { [key]: value })
  }
  if (config.fatigueWarning > config.fatigueLimit) {
    throw new SomnusError(
      'INVALID_INPUT',
      `fatigueWarning (${config.fatigueWarning}) must not exceed fatigueLimit (${config.fatigueLimit}).`,
    )
  }
  if (config.deepSleepEvery < 1 || config.consolidationAttempts < 1 || config.fatigueLimit < 1) {
    throw new SomnusError(
      'INVALID_INPUT',
      'deepSleepEvery, consolidationAttempts and fatigueLimit must be at least 1.',
    )
  }
  return config
}
