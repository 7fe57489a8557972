/** Decisions and principles over HTTP (a principle is a decision of kind principle, scope global). */
import { z } from '@hono/zod-openapi'
import {
  DecisionInputSchema as CoreDecisionInputSchema,
  DecisionSchema as CoreDecisionSchema,
  DecisionStatusSchema,
} from '../../../core/service/decision.ts'
import { InstantSchema, PageQuerySchema, SuccessFields } from './common-schemas.ts'

/** `POST /api/v1/decisions`. */
export const DecisionInputSchema = CoreDecisionInputSchema.extend({
  created_at: InstantSchema.optional().openapi({ description: 'When it was decided' }),
})
  .strict()
  .openapi('DecisionInput')

/** A stored decision or principle. */
export const DecisionSchema = CoreDecisionSchema.openapi('Decision')

/** `{ success, tenant_id, decision }`. */
export const DecisionResponseSchema = z
  .object({ ...SuccessFields, decision: DecisionSchema })
  .openapi('DecisionResponse')

/** One page of decisions (or principles), newest first. */
export const DecisionPageSchema = z
  .object({
    ...SuccessFields,
    count: z.number().int(),
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
