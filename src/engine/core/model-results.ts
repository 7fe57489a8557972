/**
 * What consolidation works on and what it produces: units of raw material with ids, and derived
 * items (summaries, observations, patterns, groups, reflections) that name their `sources`.
 */
import * as z from 'zod'

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

/** A summary with its tokens as `engine/core/tokens.ts` counts them (measured by whoever made it). */
export const MeasuredSummarySchema = SummarySchema.extend({ tokens: z.number().int().min(0) })
/** A budgeted summary and its measured tokens. */
export type MeasuredSummary = z.infer<typeof MeasuredSummarySchema>

/**
 * Priority of an observation (seed 004, docs/design/origins.md): RED critical, YLW important, GRN
 * informational.
 */
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
