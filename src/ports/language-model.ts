/**
 * The consolidation skills every front door needs, behind one port. Implementations: the offline
 * `extractive` model (default) and prompted LLMs (`anthropic:`, `openai:`, `claude-cli`).
 * Inputs are units with ids; every derived item names the unit ids it came from (`sources`).
 */
import { z } from 'zod'

/** One piece of raw material: a turn, a sentence, a bookmark, a handoff field. */
export const UnitSchema = z.object({
  id: z.string().min(1),
  text: z.string(),
  speaker: z.string().optional(),
  timestamp: z.string().optional(),
})
/** A unit of raw material. */
export type Unit = z.infer<typeof UnitSchema>

/** Tokens a call consumed, as the provider reported them (zero for the extractive model). */
export const UsageSchema = z.object({ input_tokens: z.number(), output_tokens: z.number() })
/** Token usage of one call. */
export type Usage = z.infer<typeof UsageSchema>

/** A summary that fits the budget, with the units it kept. */
export const SummarySchema = z.object({
  text: z.string(),
  sources: z.array(z.string()),
})
/** A budgeted summary. */
export type Summary = z.infer<typeof SummarySchema>

/** Priority of an observation (seed 004): RED critical, YLW important, GRN informational. */
export const PrioritySchema = z.enum(['RED', 'YLW', 'GRN'])
/** Observation priority. */
export type Priority = z.infer<typeof PrioritySchema>

/** A prioritized fact distilled from experience. */
export const ObservationSchema = z.object({
  priority: PrioritySchema,
  text: z.string().min(1),
  sources: z.array(z.string()).min(1),
  /** The source time as HH:MM when known. */
  time: z.string().optional(),
})
/** An observation. */
export type Observation = z.infer<typeof ObservationSchema>

/** A learned pattern in one domain (seed 002's observation / details / context entry). */
export const PatternSchema = z.object({
  domain: z.string().min(1),
  title: z.string().min(1),
  observation: z.string(),
  details: z.string(),
  context: z.string(),
  tags: z.array(z.string()),
  sources: z.array(z.string()).min(1),
})
/** A pattern. */
export type Pattern = z.infer<typeof PatternSchema>

/** Statements that say the same thing, with a label that states their common theme. */
export const GroupSchema = z.object({
  label: z.string(),
  members: z.array(z.string()).min(1),
})
/** A similarity group (members are unit ids). */
export type Group = z.infer<typeof GroupSchema>

/** An honest look back (seed 004's REFLECTION and PRIORITY). */
export const ReflectionSchema = z.object({
  reflection: z.string(),
  priority: z.string(),
  sources: z.array(z.string()),
})
/** A reflection. */
export type Reflection = z.infer<typeof ReflectionSchema>

/** What every call returns besides its value. */
export interface ModelCall<T> {
  value: T
  /** The model that made it, e.g. `extractive` or `anthropic:claude-sonnet-4-5`. */
  model: string
  usage: Usage
}

/** The consolidation skills. Same input to `extractive` gives the same output. */
export interface LanguageModel {
  /** `extractive`, `anthropic:<model>`, `openai:<model>` or `claude-cli`. */
  readonly name: string
  /** Summarizes `units` in at most `budgetTokens` tokens (counted by `core/tokens.ts`). */
  summarize(request: { units: Unit[]; budgetTokens: number }): Promise<ModelCall<Summary>>
  /** Distils prioritized observations from one session's units. */
  extractObservations(request: { units: Unit[] }): Promise<ModelCall<Observation[]>>
  /** Extracts domain patterns (workarounds, gotchas, conventions, preferences...) from units. */
  extractPatterns(request: { units: Unit[] }): Promise<ModelCall<Pattern[]>>
  /** Groups statements that repeat the same idea; singletons are omitted. */
  groupSimilar(request: { units: Unit[]; threshold?: number }): Promise<ModelCall<Group[]>>
  /** Reflects on recent observations and names the next priority. */
  reflect(request: { units: Unit[] }): Promise<ModelCall<Reflection>>
}
