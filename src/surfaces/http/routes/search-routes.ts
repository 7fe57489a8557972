/** Search a tenant's handoffs, every level and every turn: `GET /api/v1/search`. */
import type { Hono } from 'hono'
import { redactSecrets } from '../../../core/redact-secrets.ts'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { type AnyApiRoute, type ApiRoute, addApiRoute } from '../api-route.ts'
import { errorAnswers } from '../schemas/common-schemas.ts'
import { SearchQuerySchema, SearchResponseSchema } from '../schemas/search-schemas.ts'
import type { ServiceApi } from '../service-api.ts'

const searchRoute: ApiRoute<undefined, typeof SearchQuerySchema> = {
  method: 'get',
  path: '/api/v1/search',
  tags: ['search'],
  summary: "Search the tenant's handoffs: every compression level and every turn",
  description:
    'Best first. Each hit names its handoff and the unit it came from: a turn (its id, such as D3:7 for a LoCoMo conversation imported with `somnus handoffs import --format locomo`), a text field, the summary or the quick reference. Turns are also found by their speaker and the turns beside them. Writes are searchable as soon as they are acknowledged.',
  query: SearchQuerySchema,
  answers: {
    200: {
      description: 'The hits, best first (none is not an error)',
      schema: SearchResponseSchema,
    },
    ...errorAnswers(400, 401, 404),
  },
}

/** The search routes, for /openapi.json. */
export const SEARCH_ROUTES: AnyApiRoute[] = [searchRoute]

/** Adds the search endpoint to `app`. */
export function addSearchRoutes(app: Hono<ApiEnv>, service: ServiceApi): void {
  addApiRoute(app, searchRoute, async ({ query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const hits = await service.searchHandoffs(tenantId, {
      text: query.q,
      limit: query.limit,
      level: query.level,
    })
    return c.json(
      // The query is echoed redacted: a client may search for the very secret it pasted.
      {
        success: true as const,
        tenant_id: tenantId,
        query: redactSecrets(query.q),
        count: hits.length,
        hits,
      },
      200,
    )
  })
}
