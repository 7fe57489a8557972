/** What a creature's folder holds, as plain data: the state, a conversation line, a dream entry. */
import type { Priority } from '../../engine/core/model-results.ts'

/** Why a creature went to sleep. */
export type SleepReason = 'voluntary' | 'fatigue'

/** A sleep in progress. */
export interface SleepPeriod {
  since: string
  wakeAt: string
  seconds: number
  reason: SleepReason
}

/** One observation with the conversation lines it came from (1-based line numbers). */
export interface SourcedObservation {
  priority: Priority
  /** The day of the event it tells (YYYY-MM-DD); dreams written before it was kept lack it. */
  date?: string
  time: string
  text: string
  sources: number[]
}

/** One line of dreams.jsonl (public code's fields, plus the id and the observations' sources). */
export interface DreamEntry {
  id: string
  t: string
  actions: number
  messages: number
  /** `full` (model call), `light` (no model call) or `failed` (model answers unusable). */
  kind: 'full' | 'light' | 'failed'
  reflection: string
  /** First line of the priority, at most 200 characters. */
  priority: string
  /** How many observations were appended. */
  observations: number
  deep: boolean
  /** conversation.jsonl lines this dream consolidated: [first, last], 1-based; null when none. */
  lines: [number, number] | null
  model: string
  detail: SourcedObservation[]
}

/** A consolidation being written: replayed after a crash, so nothing is appended twice or lost. */
export interface PendingConsolidation {
  id: string
  startedAt: string
  /** conversation.jsonl lines it covers end here (count of lines when it was claimed). */
  throughLine: number
  /** Actions counted when it was claimed; subtracted when it commits. */
  actions: number
  /** Messages counted when it was claimed. */
  messages: number
  /** Set once the result is known: the commit replays it until it is done. */
  commit?: PendingCommit
}

/** A consolidation's result, ready to append. */
export interface PendingCommit {
  dream: DreamEntry
  /** The lines to append to observations.md (a dream marker, maybe a date header, observations). */
  observationsBlock: string
  sleep: SleepPeriod
}

/** The creature's counters (`.self/mind-state.json`). */
export interface MindState {
  version: 1
  /** Wake periods so far (the public code's cycle count). */
  cycle: number
  actionsSinceDream: number
  messagesSinceDream: number
  /** The tiredness warning was given this cycle. */
  warned: boolean
  dreamCount: number
  lastDreamAt: string | null
  /** conversation.jsonl lines that a dream consumed; the in-context window starts after them. */
  consolidatedLines: number
  sleeping: SleepPeriod | null
  /** The last sleep that ended (for the wake message after a restart). */
  lastSleep: SleepPeriod | null
  pending: PendingConsolidation | null
  /**
   * conversation.jsonl lines these counters account for. A process killed between logging a line
   * and writing the state leaves lines past it: the next change counts them (logged = counted).
   */
  loggedLines?: number
}

/** A creature that has never acted. */
export function initialMindState(): MindState {
  return {
    version: 1,
    cycle: 1,
    actionsSinceDream: 0,
    messagesSinceDream: 0,
    warned: false,
    dreamCount: 0,
    lastDreamAt: null,
    consolidatedLines: 0,
    sleeping: null,
    lastSleep: null,
    pending: null,
  }
}

/** Who said a conversation line. `tool` lines are actions (a tool call and its result). */
export type ConversationRole = 'user' | 'assistant' | 'tool' | 'system'

/** One line of conversation.jsonl (`{t, role, content}` as in the public code, plus optional fields). */
export interface ConversationEntry {
  t: string
  role: ConversationRole
  content: string
  /** A speaker's name (a chat partner), when known. */
  name?: string
  /** The tool of an action. */
  tool?: string
  /** `warning` / `wake` for lines the mind itself injected. */
  kind?: 'warning' | 'wake' | 'digest'
}
