/** Decisions (create, list, get) and the principles identity consolidation derives. */
import { Hono } from 'hono'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { Page } from '../../../service/index.ts'
import type { Decision } from '../../../service/service-values.ts'
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
import { validateBody, validateParams, validateQuery } from '../route-validators.ts'
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
import { type TenantEnv, tenantMiddleware } from '../tenant-middleware.ts'

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

/** The decision endpoints, mounted at `/api/v1/decisions`. */
export function decisionRoutes(service: ServiceApi) {
  const tenant = tenantMiddleware(service)
  return new Hono<TenantEnv>()
    .post(
      '/',
      validateParams(createDecisionRoute),
      validateQuery(createDecisionRoute),
      validateBody(createDecisionRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const decision = await service.createDecision(tenantId, c.req.valid('json'))
        return c.json({ success: true as const, tenant_id: tenantId, decision }, 201)
      },
    )
    .get(
      '/',
      validateParams(listDecisionsRoute),
      validateQuery(listDecisionsRoute),
      tenant,
      async (c) => {
        const query = c.req.valid('query')
        const page = await service.listDecisions(c.var.tenantId, {
          limit: query.limit,
          cursor: query.cursor,
          status: query.status,
        })
        return c.json(pageBody(c.var.tenantId, page), 200)
      },
    )
    .get(
      '/:decision_id',
      validateParams(getDecisionRoute),
      validateQuery(getDecisionRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const { decision_id } = c.req.valid('param')
        const decision = await service.getDecision(tenantId, decision_id)
        if (decision === null) throw decisionNotFound(decision_id)
        return c.json({ success: true as const, tenant_id: tenantId, decision }, 200)
      },
    )
    .delete(
      '/:decision_id',
      validateParams(deleteDecisionRoute),
      validateQuery(deleteDecisionRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const { decision_id } = c.req.valid('param')
        if (!(await service.deleteDecision(tenantId, decision_id))) {
          throw decisionNotFound(decision_id)
        }
        return c.json({ success: true as const, tenant_id: tenantId, deleted: decision_id }, 200)
      },
    )
}

/** The principle endpoint, mounted at `/api/v1/principles`. */
export function principleRoutes(service: ServiceApi) {
  return new Hono<TenantEnv>().get(
    '/',
    validateParams(listPrinciplesRoute),
    validateQuery(listPrinciplesRoute),
    tenantMiddleware(service),
    async (c) => {
      const query = c.req.valid('query')
      const page = await service.listPrinciples(c.var.tenantId, {
        limit: query.limit,
        cursor: query.cursor,
      })
      return c.json(pageBody(c.var.tenantId, page), 200)
    },
  )
}

function decisionNotFound(decisionId: string): SomnusError {
  return new SomnusError('NOT_FOUND', `decision_id: no decision "${decisionId}" for this tenant.`, {
    details: { field: 'decision_id' },
  })
}
