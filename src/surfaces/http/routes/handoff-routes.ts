/** Feed and read handoffs: create one, list them a page at a time, get one by id. */
import type { Hono } from 'hono'
import { SomnusError } from '../../../core/errors.ts'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { type AnyApiRoute, type ApiRoute, addApiRoute } from '../api-route.ts'
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

/** Adds the handoff endpoints to `app`. */
export function addHandoffRoutes(app: Hono<ApiEnv>, service: ServiceApi): void {
  addApiRoute(app, createHandoffRoute, async ({ query, body }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const handoff = await service.createHandoff(tenantId, body)
    return c.json({ success: true as const, tenant_id: tenantId, handoff }, 201)
  })

  addApiRoute(app, listHandoffsRoute, async ({ query }, c) => {
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

  addApiRoute(app, getHandoffRoute, async ({ params, query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const handoff = await service.getHandoff(tenantId, params.handoff_id)
    if (handoff === null) {
      throw new SomnusError(
        'NOT_FOUND',
        `handoff_id: no handoff "${params.handoff_id}" for this tenant.`,
        { details: { field: 'handoff_id' } },
      )
    }
    return c.json({ success: true as const, tenant_id: tenantId, handoff }, 200)
  })

  addApiRoute(app, deleteHandoffRoute, async ({ params, query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    if (!(await service.deleteHandoff(tenantId, params.handoff_id))) {
      throw new SomnusError(
        'NOT_FOUND',
        `handoff_id: no handoff "${params.handoff_id}" for this tenant.`,
        { details: { field: 'handoff_id' } },
      )
    }
    return c.json({ success: true as const, tenant_id: tenantId, deleted: params.handoff_id }, 200)
  })
}
