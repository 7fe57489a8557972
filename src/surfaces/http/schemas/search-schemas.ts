/** Handoff search over HTTP (`GET /api/v1/search`): the query parameters and the hits. */
import * as z from 'zod'
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_CHARS,
  MAX_SEARCH_LIMIT,
  SearchLevelSchema,
} from '../../../service/service-values.ts'
import { answerComponent } from './api-components.ts'
import { SuccessFields, TenantQuerySchema } from './common-schemas.ts'

/** `?q=&limit=&level=&tenant_id=`. */
export const SearchQuerySchema = TenantQuerySchema.extend({
  q: z
    .string()
    .trim()
    .min(1)
    .max(MAX_QUERY_CHARS)
    .meta({
      description:
        'What to look for, in plain words (any characters; never a query syntax). Words match in any form: "moved" finds "moving".',
      examples: ['when did Caroline go to the support group'],
    }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .default(DEFAULT_SEARCH_LIMIT)
    .meta({ description: `At most this many hits (1-${MAX_SEARCH_LIMIT})` }),
  level: SearchLevelSchema.optional().meta({
    description:
      'Search only this text: full (the original fields and turns), summary, or quick_ref. Default: every level.',
  }),
})

/** One unit that matched. */
export const SearchHitComponent = answerComponent(
  z.object({
    handoff_id: z.string(),
    unit: z.string().meta({
      description:
        'Where in the handoff: a turn id (D3:7 for an imported LoCoMo conversation), a field (learned), summary or quick_ref',
    }),
    level: SearchLevelSchema,
    speaker: z.string().nullable().meta({ description: 'Who said it (turns only)' }),
    snippet: z.string().meta({ description: 'The text around the words that matched' }),
    created_at: z.string(),
    sources: z.array(z.string()).meta({
      description:
        'The raw items it came from: the turn id, <handoff_id>#<field>, or the ids a summary cites',
    }),
    score: z.number().meta({ description: 'Higher is better; compare only within one answer' }),
  }),
  'SearchHit',
)

/** `{ success, tenant_id, query, count, hits }`. */
export const SearchResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    query: z.string(),
    count: z.number().int(),
    hits: z.array(SearchHitComponent),
  }),
  'SearchResponse',
)
