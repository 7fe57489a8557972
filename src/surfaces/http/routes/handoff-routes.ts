/** Feed and read handoffs: create one, list them a page at a time, get one by id. */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { SomnusError } from '../../../core/errors.ts'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { errorResponses, PageQuerySchema, TenantQuerySchema } from '../schemas/common-schemas.ts'
import {
  HandoffIdParamsSchema,
  HandoffInputSchema,
  HandoffPageSchema,
  HandoffResponseSchema,
} from '../schemas/handoff-schemas.ts'
import type { ServiceApi } from '../service-api.ts'
import { jsonResponse } from './json-response.ts'

const createHandoffRoute = createRoute({
  method: 'post',
  path: '/api/v1/handoffs',
  tags: ['handoffs'],
  summary: 'Store a session handoff',
  description:
    "Stored at compression level 'full'; the original text is kept through every later level.",
  request: {
    query: TenantQuerySchema,
    body: { content: { 'application/json': { schema: HandoffInputSchema } }, required: true },
  },
  responses: {
    201: jsonResponse(HandoffResponseSchema, 'The stored handoff'),
    ...errorResponses(400, 401, 404, 413, 415),
  },
})

const listHandoffsRoute = createRoute({
  method: 'get',
  path: '/api/v1/handoffs',
  tags: ['handoffs'],
  summary: 'List handoffs, newest first, a page at a time',
  request: { query: PageQuerySchema },
  responses: {
    200: jsonResponse(HandoffPageSchema, 'One page; pass next_cursor as cursor for the next'),
    ...errorResponses(400, 401, 404),
  },
})

const getHandoffRoute = createRoute({
  method: 'get',
  path: '/api/v1/handoffs/{handoff_id}',
  tags: ['handoffs'],
  summary: 'Get one handoff with every compression level',
  request: { params: HandoffIdParamsSchema, query: TenantQuerySchema },
  responses: {
    200: jsonResponse(HandoffResponseSchema, 'The handoff'),
    ...errorResponses(400, 401, 404),
  },
})

/** Adds the handoff endpoints to `app`. */
export function addHandoffRoutes(app: OpenAPIHono<ApiEnv>, service: ServiceApi): void {
  app.openapi(createHandoffRoute, async (c) => {
    const tenantId = await requestTenant(c, service, c.req.valid('query').tenant_id)
    const handoff = await service.createHandoff(tenantId, c.req.valid('json'))
    return c.json({ success: true as const, tenant_id: tenantId, handoff }, 201)
  })

  app.openapi(listHandoffsRoute, async (c) => {
    const query = c.req.valid('query')
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const page = await service.listHandoffs(tenantId, { limit: query.limit, cursor: query.cursor })
    return c.json(
      {
        success: true as const,
        tenant_id: tenantId,
        count: page.items.length,
        handoffs: page.items,
        next_cursor: page.next_cursor,
      },
      200,
    )
  })

  app.openapi(getHandoffRoute, async (c) => {
    const { handoff_id: handoffId } = c.req.valid('param')
    const tenantId = await requestTenant(c, service, c.req.valid('query').tenant_id)
    const handoff = await service.getHandoff(tenantId, handoffId)
    if (handoff === null) {
      throw new SomnusError('NOT_FOUND', `handoff_id: no handoff "${handoffId}" for this tenant.`, {
        details: { field: 'handoff_id' },
      })
    }
    return c.json({ success: true as const, tenant_id: tenantId, handoff }, 200)
  })
}
