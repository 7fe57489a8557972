/** Decisions and principles over HTTP (a principle is a decision of kind principle, scope global). */
import * as z from 'zod'
import {
  DecisionInputSchema as CoreDecisionInputSchema,
  DecisionSchema,
  DecisionStatusSchema,
} from '../../../service/service-values.ts'
import { answerComponent, requestComponent } from './api-components.ts'
import { InstantSchema, PageQuerySchema, SuccessFields } from './common-schemas.ts'

/** `POST /api/v1/decisions`. */
export const DecisionInputSchema = requestComponent(
  CoreDecisionInputSchema.extend({
    created_at: InstantSchema.optional().meta({ description: 'When it was decided' }),
  }).strict(),
  'DecisionInput',
)

/** A stored decision or principle. */
export const DecisionComponent = answerComponent(DecisionSchema.extend({}), 'Decision')

/** `{ success, tenant_id, decision }`. */
export const DecisionResponseSchema = answerComponent(
  z.object({ ...SuccessFields, decision: DecisionComponent }),
  'DecisionResponse',
)

/** One page of decisions (or principles), newest first. */
export const DecisionPageSchema = answerComponent(
  z.object({
    ...SuccessFields,
    count: z.number().int(),
    decisions: z.array(DecisionComponent),
    next_cursor: z.string().nullable(),
  }),
  'DecisionPage',
)

/** Decision lists filter by status besides paging. */
export const DecisionQuerySchema = PageQuerySchema.extend({
  status: DecisionStatusSchema.optional(),
})

/** `/{decision_id}`. */
export const DecisionIdParamsSchema = z.object({ decision_id: z.string().min(1).max(200) })
