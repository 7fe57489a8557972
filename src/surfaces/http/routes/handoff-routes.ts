/** Feed and read handoffs: create one, list them a page at a time, get one by id. */
import { Hono } from 'hono'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
import { validateBody, validateParams, validateQuery } from '../route-validators.ts'
import {
  DeletedResponseSchema,
  errorAnswers,
  PageQuerySchema,
  TenantQuerySchema,
} from '../schemas/common-schemas.ts'
import {
  HandoffIdParamsSchema,
  HandoffInputSchema,
  HandoffPageSchema,
  HandoffResponseSchema,
} from '../schemas/handoff-schemas.ts'
import type { ServiceApi } from '../service-api.ts'
import { type TenantEnv, tenantMiddleware } from '../tenant-middleware.ts'

const createHandoffRoute: ApiRoute<undefined, typeof TenantQuerySchema, typeof HandoffInputSchema> =
  {
    method: 'post',
    path: '/api/v1/handoffs',
    tags: ['handoffs'],
    summary: 'Store a session handoff',
    description:
      "Stored at compression level 'full'; the original text is kept through every later level. Text is redacted of secrets before it is stored. A big handoff (over 16,384 characters of text) is redacted and measured on the server's CPU threads, in turns between tenants; a tenant with too many waiting gets 429.",
    query: TenantQuerySchema,
    body: HandoffInputSchema,
    answers: {
      201: { description: 'The stored handoff', schema: HandoffResponseSchema },
      ...errorAnswers(400, 401, 404, 415, 429),
    },
  }

const listHandoffsRoute: ApiRoute<undefined, typeof PageQuerySchema> = {
  method: 'get',
  path: '/api/v1/handoffs',
  tags: ['handoffs'],
  summary: 'List handoffs, newest first, a page at a time',
  query: PageQuerySchema,
  answers: {
    200: {
      description: 'One page; pass next_cursor as cursor for the next',
      schema: HandoffPageSchema,
    },
    ...errorAnswers(400, 401, 404),
  },
}

const getHandoffRoute: ApiRoute<typeof HandoffIdParamsSchema, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/handoffs/{handoff_id}',
  tags: ['handoffs'],
  summary: 'Get one handoff with every compression level and its sources',
  params: HandoffIdParamsSchema,
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The handoff', schema: HandoffResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const deleteHandoffRoute: ApiRoute<typeof HandoffIdParamsSchema, typeof TenantQuerySchema> = {
  method: 'delete',
  path: '/api/v1/handoffs/{handoff_id}',
  tags: ['handoffs'],
  summary: 'Delete one handoff, every level of it',
  description:
    "Its id also leaves the sources of the principles and decisions that cited it, and its 'becoming' statement leaves a principle's quoted rationale; handoffs that named it as parent keep their place without one.",
  params: HandoffIdParamsSchema,
  query: TenantQuerySchema,
  answers: {
    200: { description: 'Deleted', schema: DeletedResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

/** The handoff routes, for /openapi.json. */
export const HANDOFF_ROUTES: AnyApiRoute[] = [
  createHandoffRoute,
  listHandoffsRoute,
  getHandoffRoute,
  deleteHandoffRoute,
]

/** The handoff endpoints, mounted at `/api/v1/handoffs`. */
export function handoffRoutes(service: ServiceApi) {
  const tenant = tenantMiddleware(service)
  return new Hono<TenantEnv>()
    .post(
      '/',
      validateParams(createHandoffRoute),
      validateQuery(createHandoffRoute),
      validateBody(createHandoffRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const handoff = await service.createHandoff(tenantId, c.req.valid('json'))
        return c.json({ success: true as const, tenant_id: tenantId, handoff }, 201)
      },
    )
    .get(
      '/',
      validateParams(listHandoffsRoute),
      validateQuery(listHandoffsRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const query = c.req.valid('query')
        const page = await service.listHandoffs(tenantId, {
          limit: query.limit,
          cursor: query.cursor,
        })
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
      },
    )
    .get(
      '/:handoff_id',
      validateParams(getHandoffRoute),
      validateQuery(getHandoffRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const { handoff_id } = c.req.valid('param')
        const handoff = await service.getHandoff(tenantId, handoff_id)
        if (handoff === null) throw handoffNotFound(handoff_id)
        return c.json({ success: true as const, tenant_id: tenantId, handoff }, 200)
      },
    )
    .delete(
      '/:handoff_id',
      validateParams(deleteHandoffRoute),
      validateQuery(deleteHandoffRoute),
      tenant,
      async (c) => {
        const tenantId = c.var.tenantId
        const { handoff_id } = c.req.valid('param')
        if (!(await service.deleteHandoff(tenantId, handoff_id))) throw handoffNotFound(handoff_id)
        return c.json({ success: true as const, tenant_id: tenantId, deleted: handoff_id }, 200)
      },
    )
}

function handoffNotFound(handoffId: string): SomnusError {
  return new SomnusError('NOT_FOUND', `handoff_id: no handoff "${handoffId}" for this tenant.`, {
    details: { field: 'handoff_id' },
  })
}
