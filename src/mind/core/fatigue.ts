/**
 * The sleep cycle's rules as pure decisions: what an action does to fatigue, whether a sleep
 * consolidates, when a dream is a deep sleep, and how long a sleep lasts.
 */
import type { MindConfig } from './mind-config.ts'
import type { MindState } from './mind-state.ts'

/** The seed's tiredness warning, injected once per cycle. */
export const FATIGUE_WARNING_TEXT =
  "[SYSTEM] You've been active for a while. Start wrapping up: finish what you are doing, then sleep (set_sleep)."

/** What one action does. */
export interface ActionOutcome {
  state: MindState
  /** The warning to inject, the first time the warning threshold is reached in a cycle. */
  warning: string | null
  /** True when the creature must now consolidate and sleep. */
  exhausted: boolean
}

/** Counts one action (a tool call) and says whether to warn or force sleep. */
export function countAction(state: MindState, config: MindConfig): ActionOutcome {
  const actions = state.actionsSinceDream + 1
  const warn = !state.warned && actions >= config.fatigueWarning && actions < config.fatigueLimit
  return {
    state: { ...state, actionsSinceDream: actions, warned: state.warned || warn },
    warning: warn ? FATIGUE_WARNING_TEXT : null,
    exhausted: actions >= config.fatigueLimit,
  }
}

/** How a sleep consolidates: a model call, a light dream without one, or not at all. */
export type ConsolidationKind = 'full' | 'light' | 'none'

/** The decision for one sleep, with the reason in words (shown to the creature and in --json). */
export interface SleepDecision {
  consolidation: ConsolidationKind
  reason: string
}

/**
 * Seed 004: a voluntary sleep of at least `quickNapSeconds`, at least `minDreamIntervalMs` after
 * the last dream, consolidates; shorter or more frequent sleeps only pause. A forced (fatigue)
 * sleep always consolidates. Nothing new since the last dream: nothing to consolidate. Few
 * actions and few messages: a light consolidation without a model call (public code).
 */
export function decideSleep(
  state: MindState,
  config: MindConfig,
  request: { seconds: number; forced: boolean; now: Date; newLines: number },
): SleepDecision {
  if (!request.forced) {
    if (request.seconds < config.quickNapSeconds) {
      return {
        consolidation: 'none',
        reason: `a nap under ${config.quickNapSeconds} s only pauses`,
      }
    }
    if (state.lastDreamAt !== null) {
      const since = request.now.getTime() - Date.parse(state.lastDreamAt)
      if (since < config.minDreamIntervalMs) {
        const minutes = Math.round(config.minDreamIntervalMs / 60_000)
        return {
          consolidation: 'none',
          reason: `the last dream was ${Math.round(since / 1000)} s ago (dreams are at least ${minutes} min apart): only a pause`,
        }
      }
    }
  }
  if (request.newLines === 0 && state.actionsSinceDream === 0) {
    return { consolidation: 'none', reason: 'nothing happened since the last dream' }
  }
  if (
    state.actionsSinceDream < config.lightConsolidationActions &&
    state.messagesSinceDream < config.lightConsolidationMessages
  ) {
    return {
      consolidation: 'light',
      reason: `few actions (${state.actionsSinceDream}) and messages (${state.messagesSinceDream}): a light dream, no model call`,
    }
  }
  return {
    consolidation: 'full',
    reason: request.forced
      ? `exhausted after ${state.actionsSinceDream} actions: forced consolidation`
      : 'consolidating',
  }
}

/** True when the dream numbered `dreamNumber` (1-based) is a deep sleep: every Nth dream. */
export function isDeepSleep(dreamNumber: number, config: MindConfig): boolean {
  return dreamNumber > 0 && dreamNumber % config.deepSleepEvery === 0
}

/** The sleep's real length: a forced sleep and a deep sleep last at least the deep-sleep pause. */
export function sleepSeconds(
  requested: number,
  config: MindConfig,
  options: { forced: boolean; deep: boolean },
): number {
  return options.forced || options.deep
    ? Math.max(requested, config.deepSleepPauseSeconds)
    : requested
}

/** The fatigue level for status displays. */
export function fatigueLevel(
  actions: number,
  config: MindConfig,
): 'rested' | 'tired' | 'exhausted' {
  if (actions >= config.fatigueLimit) return 'exhausted'
  if (actions >= config.fatigueWarning) return 'tired'
  return 'rested'
}
