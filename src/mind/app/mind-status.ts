/** How the creature is: fatigue, dreams, the next deep sleep, whether it is asleep. */
import { fatigueLevel } from '../core/fatigue.ts'
import type { SleepPeriod } from '../core/mind-state.ts'
import { type MindDeps, readState } from './mind-deps.ts'

/** The status as `somnus mind status --json` prints it. */
export interface MindStatus {
  location: string
  cycle: number
  actions: number
  messages: number
  fatigue: 'rested' | 'tired' | 'exhausted'
  warning_at: number
  limit: number
  dreams: number
  /** Dreams until the next deep sleep (1 = the next dream is deep). */
  deep_sleep_in: number
  last_dream_at: string | null
  /** When a voluntary sleep may consolidate again (null: now). */
  can_dream_at: string | null
  sleeping: SleepPeriod | null
  /** A consolidation another process is running (or left behind when killed). */
  consolidating_since: string | null
}

/** Reads the status (no lock). */
export async function mindStatus(deps: MindDeps): Promise<MindStatus> {
  const state = await readState(deps, deps.store.files)
  const { config } = deps
  const next = state.lastDreamAt ? Date.parse(state.lastDreamAt) + config.minDreamIntervalMs : 0
  const every = config.deepSleepEvery
  return {
    location: deps.store.location,
    cycle: state.cycle,
    actions: state.actionsSinceDream,
    messages: state.messagesSinceDream,
    fatigue: fatigueLevel(state.actionsSinceDream, config),
    warning_at: config.fatigueWarning,
    limit: config.fatigueLimit,
    dreams: state.dreamCount,
    deep_sleep_in: every - (state.dreamCount % every),
    last_dream_at: state.lastDreamAt,
    can_dream_at: next > deps.clock.now().getTime() ? new Date(next).toISOString() : null,
    sleeping: state.sleeping,
    consolidating_since: state.pending?.startedAt ?? null,
  }
}
