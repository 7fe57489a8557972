/** The seed's endpoints: run consolidation now, read its stats, read its jobs. */
import type { Hono } from 'hono'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { type AnyApiRoute, type ApiRoute, addApiRoute } from '../api-route.ts'
import { errorAnswers, TenantQuerySchema } from '../schemas/common-schemas.ts'
import {
  JobsQuerySchema,
  JobsResponseSchema,
  RunRequestSchema,
  RunResponseSchema,
  StatsResponseSchema,
} from '../schemas/consolidation-schemas.ts'
import type { ServiceApi } from '../service-api.ts'

const runRoute: ApiRoute<undefined, undefined, typeof RunRequestSchema> = {
  method: 'post',
  path: '/api/v1/consolidation/run',
  tags: ['consolidation'],
  summary: 'Run consolidation for a tenant now',
  description:
    'Runs the job type (or all of them: identity, compression, archival, in that order) and answers when they are done.',
  body: RunRequestSchema,
  bodyRequired: false,
  answers: {
    200: { description: 'What each job did', schema: RunResponseSchema },
    ...errorAnswers(400, 401, 404, 415),
  },
}

const statsRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/consolidation/stats',
  tags: ['consolidation'],
  summary: 'Measured consolidation statistics of a tenant',
  query: TenantQuerySchema,
  answers: {
    200: { description: 'One row per day and job type, newest first', schema: StatsResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const jobsRoute: ApiRoute<undefined, typeof JobsQuerySchema> = {
  method: 'get',
  path: '/api/v1/consolidation/jobs',
  tags: ['consolidation'],
  summary: 'Recent consolidation jobs of a tenant',
  query: JobsQuerySchema,
  answers: {
    200: { description: 'Jobs, newest first', schema: JobsResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

/** The consolidation routes, for /openapi.json. */
export const CONSOLIDATION_ROUTES: AnyApiRoute[] = [runRoute, statsRoute, jobsRoute]

/** Adds the consolidation endpoints to `app`. */
export function addConsolidationRoutes(app: Hono<ApiEnv>, service: ServiceApi): void {
  addApiRoute(app, runRoute, async ({ body }, c) => {
    const tenantId = await requestTenant(c, service, body.tenant_id)
    const asOf = body.as_of === undefined ? undefined : new Date(body.as_of)
    return c.json(await service.runConsolidation(tenantId, body.job_type, asOf), 200)
  })

  addApiRoute(app, statsRoute, async ({ query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    return c.json(await service.consolidationStats(tenantId), 200)
  })

  addApiRoute(app, jobsRoute, async ({ query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    return c.json(
      await service.consolidationJobs(tenantId, { status: query.status, limit: query.limit }),
      200,
    )
  })
}
