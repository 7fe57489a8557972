/**
 * The consolidation skills every front door needs, behind one port. Implementations: the offline
 * `extractive` model (default) and prompted LLMs (`anthropic:`, `openai:`, `claude-cli`).
 * Inputs are units with ids; every derived item names the unit ids it came from (`sources`).
 */
import type { SessionDigest } from '../core/digest/session-digest.ts'
import type {
  Group,
  MeasuredSummary,
  Observation,
  Pattern,
  Reflection,
  Summary,
  Unit,
  Usage,
} from '../core/model-results.ts'

export {
  type Group,
  GroupSchema,
  type MeasuredSummary,
  MeasuredSummarySchema,
  type Observation,
  ObservationSchema,
  type Pattern,
  PatternSchema,
  type Priority,
  PrioritySchema,
  type Reflection,
  ReflectionSchema,
  type Summary,
  SummarySchema,
  type Unit,
  UnitSchema,
  type Usage,
  UsageSchema,
} from '../core/model-results.ts'

/** What every call returns besides its value. */
export interface ModelCall<T> {
  value: T
  /** The model that made it, e.g. `extractive` or `anthropic:claude-sonnet-4-5`. */
  model: string
  usage: Usage
}

/**
 * What every request may carry besides its input: an `AbortSignal`. Once it fires, the call rejects
 * with a SomnusError coded `ABORTED` and stops what it started (an HTTP request, a subprocess).
 */
export interface ModelRequestOptions {
  signal?: AbortSignal | undefined
}

/** The consolidation skills. Same input to `extractive` gives the same output. */
export interface LanguageModel {
  /** `extractive`, `anthropic:<model>`, `openai:<model>` or `claude-cli`. */
  readonly name: string
  /**
   * Calls it can usefully run at once (worker threads, parallel requests); a caller with many
   * independent calls may keep this many in flight. Absent: one at a time.
   */
  readonly concurrency?: number
  /**
   * Summarizes `units` in at most `budgetTokens` tokens (counted by `engine/core/tokens.ts`). `terse`: a
   * reference rather than a summary (the service's quick ref): the salient clause of a few units
   * (what was done, planned, named, dated); a model may treat it as a plain summary.
   */
  summarize(
    request: { units: Unit[]; budgetTokens: number; terse?: boolean } & ModelRequestOptions,
  ): Promise<ModelCall<Summary>>
  /** Distils prioritized observations from one session's units. */
  extractObservations(
    request: { units: Unit[] } & ModelRequestOptions,
  ): Promise<ModelCall<Observation[]>>
  /**
   * Optional: summaries of `units` at each of `budgets` in turn, each made from the units the one
   * before kept (all of them when it kept none): the service's full → summary → quick ref, every
   * level after the first terse (as `summarize` with `terse`). A model
   * that has it prepares the text once for every level and counts each level's tokens (with
   * `engine/core/tokens.ts`); callers without it call `summarize` per level.
   */
  summarizeLevels?(
    request: { units: Unit[]; budgets: number[] } & ModelRequestOptions,
  ): Promise<ModelCall<MeasuredSummary[]>>
  /** Extracts domain patterns (workarounds, gotchas, conventions, preferences...) from units. */
  extractPatterns(request: { units: Unit[] } & ModelRequestOptions): Promise<ModelCall<Pattern[]>>
  /** Groups statements that repeat the same idea; singletons are omitted. */
  groupSimilar(
    request: { units: Unit[]; threshold?: number } & ModelRequestOptions,
  ): Promise<ModelCall<Group[]>>
  /** Reflects on recent observations and names the next priority. */
  reflect(request: { units: Unit[] } & ModelRequestOptions): Promise<ModelCall<Reflection>>
  /**
   * Writes a session's digest from `draft`, the extractive digest of its transcript: the same
   * structure and session facts, every item citing records that `draft` cites (extractive: the
   * draft itself).
   */
  digestSession(
    request: { draft: SessionDigest } & ModelRequestOptions,
  ): Promise<ModelCall<SessionDigest>>
}
