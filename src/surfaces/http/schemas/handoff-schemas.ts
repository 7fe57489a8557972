/** Handoffs over HTTP: core/service's shapes, named for /openapi.json; unknown fields refused. */
import { z } from '@hono/zod-openapi'
import {
  HandoffInputSchema as CoreHandoffInputSchema,
  HandoffSchema as CoreHandoffSchema,
} from '../../../core/service/handoff.ts'
import { InstantSchema, SuccessFields } from './common-schemas.ts'

/** `POST /api/v1/handoffs`: one session's handoff. */
export const HandoffInputSchema = CoreHandoffInputSchema.extend({
  created_at: InstantSchema.optional().openapi({
    description: 'When the session happened (default: now); compression ages count from it',
  }),
})
  .strict()
  .openapi('HandoffInput')

/** A stored handoff with every compression level and the sources each level cites. */
export const HandoffSchema = CoreHandoffSchema.openapi('Handoff')

/** `{ success, tenant_id, handoff }`. */
export const HandoffResponseSchema = z
  .object({ ...SuccessFields, handoff: HandoffSchema })
  .openapi('HandoffResponse')

/** One page of handoffs, newest first. */
export const HandoffPageSchema = z
  .object({
    ...SuccessFields,
    count: z.number().int(),
    handoffs: z.array(HandoffSchema),
    next_cursor: z.string().nullable(),
  })
  .openapi('HandoffPage')

/** `/{handoff_id}`. */
export const HandoffIdParamsSchema = z.object({
  handoff_id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'handoff_id', in: 'path' }, example: 'ho_3fa9c01e' }),
})
