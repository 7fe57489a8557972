/** Decisions and principles over HTTP (a principle is a decision with scope `global`). */
import { z } from '@hono/zod-openapi'
import { InstantSchema, MAX_PAGE_SIZE, PageQuerySchema, SuccessFields } from './common-schemas.ts'

/** The statuses a decision moves through: archival turns active into superseded. */
export const DecisionStatusSchema = z.enum(['active', 'superseded'])

/** `POST /api/v1/decisions`. */
export const DecisionInputSchema = z
  .strictObject({
    decision: z.string().min(1).max(20_000).openapi({ example: 'Use PGlite by default' }),
    rationale: z.string().max(100_000).nullish(),
    scope: z.string().min(1).max(200).optional().openapi({
      description: "Where it applies (default 'project'); 'global' makes it a principle",
      example: 'project',
    }),
    created_at: InstantSchema.optional().openapi({ description: 'When it was decided' }),
  })
  .openapi('DecisionInput')

/** A stored decision. */
export const DecisionSchema = z
  .object({
    decision_id: z.string(),
    tenant_id: z.string(),
    decision: z.string(),
    rationale: z.string().nullable(),
    status: DecisionStatusSchema,
    scope: z.string(),
    sources: z.array(z.string()).openapi({
      description: 'The handoff ids a derived decision (a principle) cites',
    }),
    created_at: z.string(),
    updated_at: z.string().nullable(),
  })
  .openapi('Decision')

/** `{ success, tenant_id, decision }`. */
export const DecisionResponseSchema = z
  .object({ ...SuccessFields, decision: DecisionSchema })
  .openapi('DecisionResponse')

/** One page of decisions (or principles), newest first. */
export const DecisionPageSchema = z
  .object({
    ...SuccessFields,
    count: z.number().int().max(MAX_PAGE_SIZE),
    decisions: z.array(DecisionSchema),
    next_cursor: z.string().nullable(),
  })
  .openapi('DecisionPage')

/** Decision lists filter by status besides paging. */
export const DecisionQuerySchema = PageQuerySchema.extend({
  status: DecisionStatusSchema.optional(),
})

/** `/{decision_id}`. */
export const DecisionIdParamsSchema = z.object({
  decision_id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'decision_id', in: 'path' }, example: 'dc_3fa9c01e' }),
})
