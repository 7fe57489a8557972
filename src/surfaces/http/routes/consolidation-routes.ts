/**
 * The seed's endpoints: run consolidation (queued for a worker; `?wait=true` waits and answers in
 * the seed's shape), read its stats, read its jobs; and one job by id, to follow a queued run.
 */
import { Hono } from 'hono'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
import { validateBody, validateParams, validateQuery } from '../route-validators.ts'
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
import { type TenantEnv, tenantMiddleware } from '../tenant-middleware.ts'

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

/** The consolidation endpoints, mounted at `/api/v1/consolidation`. */
export function consolidationRoutes(service: ServiceApi) {
  const tenant = tenantMiddleware(service)
  return new Hono<TenantEnv>()
    .post(
      '/run',
      validateParams(runRoute),
      validateQuery(runRoute),
      validateBody(runRoute),
      // The seed names the tenant in the body of a run.
      tenantMiddleware(service, 'json'),
      async (c) => {
        const body = c.req.valid('json')
        const asOf = body.as_of === undefined ? undefined : new Date(body.as_of)
        const queued = await service.enqueueConsolidation(c.var.tenantId, body.job_type, asOf)
        if (c.req.valid('query').wait !== 'true') return c.json(queued, 202)
        return c.json(await service.awaitConsolidation(queued, c.req.raw.signal), 200)
      },
    )
    .get('/stats', validateParams(statsRoute), validateQuery(statsRoute), tenant, async (c) =>
      c.json(await service.consolidationStats(c.var.tenantId), 200),
    )
    .get('/jobs', validateParams(jobsRoute), validateQuery(jobsRoute), tenant, async (c) => {
      const query = c.req.valid('query')
      return c.json(
        await service.consolidationJobs(c.var.tenantId, {
          status: query.status,
          limit: query.limit,
        }),
        200,
      )
    })
    .get('/jobs/:job_id', validateParams(jobRoute), validateQuery(jobRoute), tenant, async (c) => {
      const tenantId = c.var.tenantId
      const { job_id } = c.req.valid('param')
      const job = await service.getJob(tenantId, job_id)
      if (job === null) {
        throw new SomnusError('NOT_FOUND', `job_id: no job "${job_id}" for this tenant.`, {
          details: { field: 'job_id' },
        })
      }
      return c.json({ success: true as const, tenant_id: tenantId, job }, 200)
    })
}
