/** Decisions (create, list, get) and the principles identity consolidation derives. */
import type { Hono } from 'hono'
import { SomnusError } from '../../../core/errors.ts'
import type { Decision } from '../../../core/service/decision.ts'
import type { Page } from '../../../ports/service-stores.ts'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { type AnyApiRoute, type ApiRoute, addApiRoute } from '../api-route.ts'
import {
  DeletedResponseSchema,
  errorAnswers,
  PageQuerySchema,
  TenantQuerySchema,
} from '../schemas/common-schemas.ts'
import {
  DecisionIdParamsSchema,
  DecisionInputSchema,
  DecisionPageSchema,
  DecisionQuerySchema,
  DecisionResponseSchema,
} from '../schemas/decision-schemas.ts'
import type { ServiceApi } from '../service-api.ts'

const PAGE_DESCRIPTION = 'One page; pass next_cursor as cursor for the next'

const createDecisionRoute: ApiRoute<
  undefined,
  typeof TenantQuerySchema,
  typeof DecisionInputSchema
> = {
  method: 'post',
  path: '/api/v1/decisions',
  tags: ['decisions'],
  summary: 'Record a decision',
  query: TenantQuerySchema,
  body: DecisionInputSchema,
  answers: {
    201: { description: 'The stored decision, status active', schema: DecisionResponseSchema },
    ...errorAnswers(400, 401, 404, 415),
  },
}

const listDecisionsRoute: ApiRoute<undefined, typeof DecisionQuerySchema> = {
  method: 'get',
  path: '/api/v1/decisions',
  tags: ['decisions'],
  summary: 'List decisions, newest first; superseded ones stay queryable',
  query: DecisionQuerySchema,
  answers: {
    200: { description: PAGE_DESCRIPTION, schema: DecisionPageSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const getDecisionRoute: ApiRoute<typeof DecisionIdParamsSchema, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/decisions/{decision_id}',
  tags: ['decisions'],
  summary: 'Get one decision',
  params: DecisionIdParamsSchema,
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The decision', schema: DecisionResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const listPrinciplesRoute: ApiRoute<undefined, typeof PageQuerySchema> = {
  method: 'get',
  path: '/api/v1/principles',
  tags: ['decisions'],
  summary: 'List principles (kind principle, scope global), each citing its handoffs',
  query: PageQuerySchema,
  answers: {
    200: { description: PAGE_DESCRIPTION, schema: DecisionPageSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const deleteDecisionRoute: ApiRoute<typeof DecisionIdParamsSchema, typeof TenantQuerySchema> = {
  method: 'delete',
  path: '/api/v1/decisions/{decision_id}',
  tags: ['decisions'],
  summary: 'Delete one decision or principle',
  description:
    'A deleted principle frees the handoffs merged into it (integrated_into is cleared), so a later identity run may group them again.',
  params: DecisionIdParamsSchema,
  query: TenantQuerySchema,
  answers: {
    200: { description: 'Deleted', schema: DeletedResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

/** The decision and principle routes, for /openapi.json. */
export const DECISION_ROUTES: AnyApiRoute[] = [
  createDecisionRoute,
  listDecisionsRoute,
  getDecisionRoute,
  deleteDecisionRoute,
  listPrinciplesRoute,
]

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
export function addDecisionRoutes(app: Hono<ApiEnv>, service: ServiceApi): void {
  addApiRoute(app, createDecisionRoute, async ({ query, body }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const decision = await service.createDecision(tenantId, body)
    return c.json({ success: true as const, tenant_id: tenantId, decision }, 201)
  })

  addApiRoute(app, listDecisionsRoute, async ({ query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const page = await service.listDecisions(tenantId, {
      limit: query.limit,
      cursor: query.cursor,
      status: query.status,
    })
    return c.json(pageBody(tenantId, page), 200)
  })

  addApiRoute(app, getDecisionRoute, async ({ params, query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const decision = await service.getDecision(tenantId, params.decision_id)
    if (decision === null) {
      throw new SomnusError(
        'NOT_FOUND',
        `decision_id: no decision "${params.decision_id}" for this tenant.`,
        { details: { field: 'decision_id' } },
      )
    }
    return c.json({ success: true as const, tenant_id: tenantId, decision }, 200)
  })

  addApiRoute(app, listPrinciplesRoute, async ({ query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const page = await service.listPrinciples(tenantId, {
      limit: query.limit,
      cursor: query.cursor,
    })
    return c.json(pageBody(tenantId, page), 200)
  })

  addApiRoute(app, deleteDecisionRoute, async ({ params, query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    if (!(await service.deleteDecision(tenantId, params.decision_id))) {
      throw new SomnusError(
        'NOT_FOUND',
        `decision_id: no decision "${params.decision_id}" for this tenant.`,
        { details: { field: 'decision_id' } },
      )
    }
    return c.json({ success: true as const, tenant_id: tenantId, deleted: params.decision_id }, 200)
  })
}
