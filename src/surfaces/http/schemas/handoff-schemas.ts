/** Handoffs over HTTP: the seed's session_handoffs columns, in and out. */
import { z } from '@hono/zod-openapi'
import { InstantSchema, MAX_PAGE_SIZE, SuccessFields } from './common-schemas.ts'

/** The longest one text field of a handoff may be (the body limit caps the whole request). */
const MAX_FIELD_CHARACTERS = 100_000

const text = (description: string) =>
  z.string().max(MAX_FIELD_CHARACTERS).nullish().openapi({ description })

/** `POST /api/v1/handoffs`: one session's handoff. Unknown fields are refused, not dropped. */
export const HandoffInputSchema = z
  .strictObject({
    session_id: z.string().min(1).max(500).openapi({ example: 'b2c9f3e0-session' }),
    with_whom: text('Who the session was with'),
    experienced: text('What happened'),
    noticed: text('What stood out'),
    learned: text('What was learned'),
    story: text('The session as a short story'),
    becoming: text('Who the agent is becoming (feeds identity consolidation)'),
    remember: text('What to remember next time'),
    significance: z.number().min(0).max(1).optional().openapi({ example: 0.5 }),
    tags: z.array(z.string().min(1).max(200)).max(100).optional(),
    created_at: InstantSchema.optional().openapi({
      description: 'When the session happened (default: now)',
    }),
    parent_handoff_id: z.string().min(1).max(200).nullish(),
  })
  .openapi('HandoffInput')

/** A stored handoff with its compression levels. */
export const HandoffSchema = z
  .object({
    handoff_id: z.string(),
    tenant_id: z.string(),
    session_id: z.string(),
    with_whom: z.string().nullable(),
    experienced: z.string().nullable(),
    noticed: z.string().nullable(),
    learned: z.string().nullable(),
    story: z.string().nullable(),
    becoming: z.string().nullable(),
    remember: z.string().nullable(),
    significance: z.number(),
    tags: z.array(z.string()),
    created_at: z.string(),
    compression_level: z.enum(['full', 'summary', 'quick_ref', 'integrated']),
    summary: z.string().nullable(),
    quick_ref: z.string().nullable(),
    integrated_into: z.string().nullable(),
    consolidated_at: z.string().nullable(),
    parent_handoff_id: z.string().nullable(),
  })
  .openapi('Handoff')

/** `{ success, tenant_id, handoff }`. */
export const HandoffResponseSchema = z
  .object({ ...SuccessFields, handoff: HandoffSchema })
  .openapi('HandoffResponse')

/** One page of handoffs, newest first. */
export const HandoffPageSchema = z
  .object({
    ...SuccessFields,
    count: z.number().int().max(MAX_PAGE_SIZE),
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
