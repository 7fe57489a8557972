/**
 * Decisions (seed 003's `decisions` table, docs/design/origins.md): what a tenant decided, active
 * until archived. A principle is a decision of kind `principle` and scope `global`, made by
 * identity consolidation from a theme of "becoming" statements, which it cites.
 */
import * as z from 'zod'
import { INSTANT_RANGE_MESSAGE, isStorableInstant } from './client-values.ts'

/** `active` decisions are in the working set; `superseded` ones are archived but still readable. */
export const DecisionStatusSchema = z.enum(['active', 'superseded'])
/** A decision's status. */
export type DecisionStatus = z.infer<typeof DecisionStatusSchema>

/** Where a decision applies. Principles are `global`. */
export const DecisionScopeSchema = z.enum(['global', 'project', 'session'])
/** A decision's scope. */
export type DecisionScope = z.infer<typeof DecisionScopeSchema>

/** A plain decision, or a principle made by identity consolidation. */
export const DecisionKindSchema = z.enum(['decision', 'principle'])
/** A decision's kind. */
export type DecisionKind = z.infer<typeof DecisionKindSchema>

/** What a caller sends to record a decision. */
export const DecisionInputSchema = z.object({
  decision_id: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.:@/#-]+$/, 'use letters, digits and . : @ / # _ -')
    .optional(),
  decision: z.string().min(1).max(20_000),
  rationale: z.string().max(100_000).nullish(),
  scope: DecisionScopeSchema.optional(),
  created_at: z.iso
    .datetime({ offset: true })
    .refine(isStorableInstant, INSTANT_RANGE_MESSAGE)
    .optional(),
  sources: z.array(z.string().max(200)).max(10_000).optional(),
})
/** A decision as sent by a caller. */
export type DecisionInput = z.infer<typeof DecisionInputSchema>

/** A stored decision or principle. */
export const DecisionSchema = z.object({
  decision_id: z.string(),
  tenant_id: z.string(),
  kind: DecisionKindSchema,
  decision: z.string(),
  rationale: z.string().nullable(),
  status: DecisionStatusSchema,
  scope: DecisionScopeSchema,
  /** What it came from: for a principle, the handoff ids whose "becoming" statements it merges. */
  sources: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  superseded_at: z.string().nullable(),
})
/** A stored decision. */
export type Decision = z.infer<typeof DecisionSchema>
