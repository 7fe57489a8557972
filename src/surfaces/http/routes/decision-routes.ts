/** Decisions (create, list, get) and the principles identity consolidation derives. */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { SomnusError } from '../../../core/errors.ts'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { errorResponses, PageQuerySchema, TenantQuerySchema } from '../schemas/common-schemas.ts'
import {
  DecisionIdParamsSchema,
  DecisionInputSchema,
  DecisionPageSchema,
  DecisionQuerySchema,
  DecisionResponseSchema,
} from '../schemas/decision-schemas.ts'
import type { Decision } from '../../../core/service/decision.ts'
import type { Page } from '../../../ports/service-stores.ts'
import type { ServiceApi } from '../service-api.ts'
import { jsonResponse } from './json-response.ts'

const createDecisionRoute = createRoute({
  method: 'post',
  path: '/api/v1/decisions',
  tags: ['decisions'],
  summary: 'Record a decision',
  request: {
    query: TenantQuerySchema,
    body: { content: { 'application/json': { schema: DecisionInputSchema } }, required: true },
  },
  responses: {
    201: jsonResponse(DecisionResponseSchema, 'The stored decision, status active'),
    ...errorResponses(400, 401, 404, 413, 415),
  },
})

const listDecisionsRoute = createRoute({
  method: 'get',
  path: '/api/v1/decisions',
  tags: ['decisions'],
  summary: 'List decisions, newest first; superseded ones stay queryable',
  request: { query: DecisionQuerySchema },
  responses: {
    200: jsonResponse(DecisionPageSchema, 'One page; pass next_cursor as cursor for the next'),
    ...errorResponses(400, 401, 404),
  },
})

const getDecisionRoute = createRoute({
  method: 'get',
  path: '/api/v1/decisions/{decision_id}',
  tags: ['decisions'],
  summary: 'Get one decision',
  request: { params: DecisionIdParamsSchema, query: TenantQuerySchema },
  responses: {
    200: jsonResponse(DecisionResponseSchema, 'The decision'),
    ...errorResponses(400, 401, 404),
  },
})

const listPrinciplesRoute = createRoute({
  method: 'get',
  path: '/api/v1/principles',
  tags: ['decisions'],
  summary: 'List principles (decisions with scope global), each citing its handoffs',
  request: { query: PageQuerySchema },
  responses: {
    200: jsonResponse(DecisionPageSchema, 'One page; pass next_cursor as cursor for the next'),
    ...errorResponses(400, 401, 404),
  },
})

/** The body of a page of decisions. */
function pageBody(tenantId: string, page: Page<Decision>) {
  return {
    success: true as const,
    tenant_id: tenantId,
    count: page.items.length,
    decisions: page.items,
    next_cursor: page.next_cursor,
  }
}

/** Adds the decision and principle endpoints to `app`. */
export function addDecisionRoutes(app: OpenAPIHono<ApiEnv>, service: ServiceApi): void {
  app.openapi(createDecisionRoute, async (c) => {
    const tenantId = await requestTenant(c, service, c.req.valid('query').tenant_id)
    const decision = await service.createDecision(tenantId, c.req.valid('json'))
    return c.json({ success: true as const, tenant_id: tenantId, decision }, 201)
  })

  app.openapi(listDecisionsRoute, async (c) => {
    const query = c.req.valid('query')
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const page = await service.listDecisions(tenantId, {
      limit: query.limit,
      cursor: query.cursor,
      status: query.status,
    })
    return c.json(pageBody(tenantId, page), 200)
  })

  app.openapi(getDecisionRoute, async (c) => {
    const { decision_id: decisionId } = c.req.valid('param')
    const tenantId = await requestTenant(c, service, c.req.valid('query').tenant_id)
    const decision = await service.getDecision(tenantId, decisionId)
    if (decision === null) {
      throw new SomnusError(
        'NOT_FOUND',
        `decision_id: no decision "${decisionId}" for this tenant.`,
        { details: { field: 'decision_id' } },
      )
    }
    return c.json({ success: true as const, tenant_id: tenantId, decision }, 200)
  })

  app.openapi(listPrinciplesRoute, async (c) => {
    const query = c.req.valid('query')
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const page = await service.listPrinciples(tenantId, {
      limit: query.limit,
      cursor: query.cursor,
    })
    return c.json(pageBody(tenantId, page), 200)
  })
}
