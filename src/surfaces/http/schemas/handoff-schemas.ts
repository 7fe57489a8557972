/** Handoffs over HTTP: service/core's shapes, named for /openapi.json; unknown fields refused. */
import * as z from 'zod'
import {
  HandoffInputSchema as CoreHandoffInputSchema,
  HandoffSchema,
} from '../../../service/service-values.ts'
import { answerComponent, requestComponent } from './api-components.ts'
import { InstantSchema, SuccessFields } from './common-schemas.ts'

/** `POST /api/v1/handoffs`: one session's handoff. */
export const HandoffInputSchema = requestComponent(
  CoreHandoffInputSchema.extend({
    created_at: InstantSchema.optional().meta({
      description: 'When the session happened (default: now); compression ages count from it',
    }),
  }).strict(),
  'HandoffInput',
)

/** A stored handoff with every compression level and the sources each level cites. */
export const HandoffComponent = answerComponent(HandoffSchema.extend({}), 'Handoff')

/** `{ success, tenant_id, handoff }`. */
export const HandoffResponseSchema = answerComponent(
  z.object({ ...SuccessFields, handoff: HandoffComponent }),
  'HandoffResponse',
)

/** One page of handoffs, newest first. */
export const HandoffPageSchema = answerComponent(
  z.object({
    ...SuccessFields,
    count: z.number().int(),
    handoffs: z.array(HandoffComponent),
    next_cursor: z.string().nullable(),
  }),
  'HandoffPage',
)

/** `/{handoff_id}`. */
export const HandoffIdParamsSchema = z.object({ handoff_id: z.string().min(1).max(200) })
