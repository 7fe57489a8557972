/** Schemas every route shares: the error body, the tenant and paging parameters, dates. */
import * as z from 'zod'
import { INSTANT_RANGE_MESSAGE, isStorableInstant } from '../../../service/service-values.ts'
import { answerComponent } from './api-components.ts'

/** The most items one page may hold. */
export const MAX_PAGE_SIZE = 500

/** The body of every 4xx and 5xx answer: what went wrong, which field, and what would be valid. */
export const ErrorResponseSchema = answerComponent(
  z.object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({ examples: ['INVALID_INPUT'] }),
      message: z.string().meta({
        examples: ['job_type (in the body): must be one of all, identity_consolidation, …'],
      }),
      field: z
        .string()
        .optional()
        .meta({ examples: ['job_type'] }),
      valid_values: z.array(z.string()).optional(),
    }),
  }),
  'Error',
)

/** An error body as a value. */
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>

/** `tenant_id` as the seed passes it; with auth on it must be the key's own tenant. */
export const TenantIdSchema = z
  .string()
  .min(1)
  .max(200)
  .meta({
    description:
      "The tenant (default: the API key's tenant; with auth off, 'default'). Another tenant's id answers 404.",
    examples: ['default'],
  })

/** `?tenant_id=` alone. */
export const TenantQuerySchema = z.object({ tenant_id: TenantIdSchema.optional() })

/** `?limit=` as a positive whole number, read from a query string. */
export function limitParameter(defaultLimit: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(defaultLimit)
    .meta({ description: `At most this many items (1-${MAX_PAGE_SIZE})` })
}

/** `?limit=&cursor=&tenant_id=` of every paged list. */
export const PageQuerySchema = TenantQuerySchema.extend({
  limit: limitParameter(50).meta({
    description: `At most this many items (1-${MAX_PAGE_SIZE}); a page also stops at about 4 MB of text (at least one item), and next_cursor goes on from there`,
  }),
  cursor: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .meta({ description: 'The next_cursor of the previous page' }),
})

/** An instant: ISO 8601 date-time with an offset, or a calendar date (midnight UTC). */
export const InstantSchema = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'must be an ISO 8601 date-time (2026-02-16T10:30:00Z) or a date (2026-02-16)',
  })
  .refine(isStorableInstant, INSTANT_RANGE_MESSAGE)

/** `{ success: true, tenant_id }`, the start of every successful answer. */
export const SuccessFields = {
  success: z.literal(true),
  tenant_id: z.string(),
}

/** The answer to a DELETE: the id that is gone. */
export const DeletedResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    deleted: z.string().meta({ description: 'The id of what was deleted' }),
  }),
  'Deleted',
)

const ERROR_DESCRIPTIONS = {
  400: 'Bad input (a wrong value, an unknown field or parameter): the error names the field',
  401: 'No valid API key',
  404: 'Not found (or another tenant’s)',
  413: 'Body larger than the server accepts (--max-body)',
  415: 'Body without Content-Type: application/json',
  429: 'This tenant has as many big handoffs waiting for the CPU as it may: retry after Retry-After seconds',
  503: 'Unavailable for now: retry later',
} as const

/** The error answers a route can give besides its own. */
export function errorAnswers(...statuses: Array<keyof typeof ERROR_DESCRIPTIONS>) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: ERROR_DESCRIPTIONS[status], schema: ErrorResponseSchema },
    ]),
  )
}
