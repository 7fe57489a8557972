/** Search a tenant's handoffs, every level and every turn: `GET /api/v1/search`. */
import { Hono } from 'hono'
import { redactSecrets } from '../../../engine/core/redact-secrets.ts'
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
import { validateParams, validateQuery } from '../route-validators.ts'
import { errorAnswers } from '../schemas/common-schemas.ts'
import { SearchQuerySchema, SearchResponseSchema } from '../schemas/search-schemas.ts'
import type { ServiceApi } from '../service-api.ts'
import { type TenantEnv, tenantMiddleware } from '../tenant-middleware.ts'

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

/** The search endpoint, mounted at `/api/v1/search`. */
export function searchRoutes(service: ServiceApi) {
  return new Hono<TenantEnv>().get(
    '/',
    validateParams(searchRoute),
    validateQuery(searchRoute),
    tenantMiddleware(service),
    async (c) => {
      const tenantId = c.var.tenantId
      const query = c.req.valid('query')
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
    },
  )
}
