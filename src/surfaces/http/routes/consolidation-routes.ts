/**
 * The seed's endpoints: run consolidation (queued for a worker; `?wait=true` waits and answers in
 * the seed's shape), read its stats, read its jobs; and one job by id, to follow a queued run.
 */
import type { Hono } from 'hono'
import { SomnusError } from '../../../core/errors.ts'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { type AnyApiRoute, type ApiRoute, addApiRoute } from '../api-route.ts'
import { errorAnswers, TenantQuerySchema } from '../schemas/common-schemas.ts'
import {
  JobIdParamsSchema,
  JobResponseSchema,
  JobsQuerySchema,
  JobsResponseSchema,
  QueuedResponseSchema,
  RunQuerySchema,
  RunRequestSchema,
  RunResponseSchema,
  StatsResponseSchema,
} from '../schemas/consolidation-schemas.ts'
import type { ServiceApi } from '../service-api.ts'

const runRoute: ApiRoute<undefined, typeof RunQuerySchema, typeof RunRequestSchema> = {
  method: 'post',
  path: '/api/v1/consolidation/run',
  tags: ['consolidation'],
  summary: 'Run consolidation for a tenant',
  description:
    'Queues one job per type (all: identity, compression, archival, run in that order) for a worker and answers at once with their ids (202); follow them at /api/v1/consolidation/jobs/{job_id}. With ?wait=true it answers once they have ended, with what each did (200).',
  query: RunQuerySchema,
  body: RunRequestSchema,
  bodyRequired: false,
  answers: {
    200: { description: '?wait=true: what each job did', schema: RunResponseSchema },
    202: { description: 'The jobs, queued for a worker', schema: QueuedResponseSchema },
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

const jobRoute: ApiRoute<typeof JobIdParamsSchema, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/consolidation/jobs/{job_id}',
  tags: ['consolidation'],
  summary: 'One consolidation job: its status, counts over every attempt, and last error',
  params: JobIdParamsSchema,
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The job', schema: JobResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

/** The consolidation routes, for /openapi.json. */
export const CONSOLIDATION_ROUTES: AnyApiRoute[] = [runRoute, statsRoute, jobsRoute, jobRoute]

/** Adds the consolidation endpoints to `app`. */
export function addConsolidationRoutes(app: Hono<ApiEnv>, service: ServiceApi): void {
  addApiRoute(app, runRoute, async ({ query, body }, c) => {
    const tenantId = await requestTenant(c, service, body.tenant_id)
    const asOf = body.as_of === undefined ? undefined : new Date(body.as_of)
    const queued = await service.enqueueConsolidation(tenantId, body.job_type, asOf)
    if (query.wait !== 'true') return c.json(queued, 202)
    return c.json(await service.awaitConsolidation(queued, c.req.raw.signal), 200)
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

  addApiRoute(app, jobRoute, async ({ params, query }, c) => {
    const tenantId = await requestTenant(c, service, query.tenant_id)
    const job = await service.getJob(tenantId, params.job_id)
    if (job === null) {
      throw new SomnusError('NOT_FOUND', `job_id: no job "${params.job_id}" for this tenant.`, {
        details: { field: 'job_id' },
      })
    }
    return c.json({ success: true as const, tenant_id: tenantId, job }, 200)
  })
}
