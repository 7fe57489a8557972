/** The seed's endpoints: run consolidation now, read its stats, read its jobs. */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { type ApiEnv, requestTenant } from '../api-key-auth.ts'
import { errorResponses, TenantQuerySchema } from '../schemas/common-schemas.ts'
import {
  JobsQuerySchema,
  JobsResponseSchema,
  RunRequestSchema,
  RunResponseSchema,
  StatsResponseSchema,
} from '../schemas/consolidation-schemas.ts'
import type { ServiceApi } from '../service-api.ts'
import { jsonResponse } from './json-response.ts'

const runRoute = createRoute({
  method: 'post',
  path: '/api/v1/consolidation/run',
  tags: ['consolidation'],
  summary: 'Run consolidation for a tenant now',
  description:
    'Runs the job type (or all of them: identity, compression, archival, in that order) and answers when they are done.',
  request: {
    body: { content: { 'application/json': { schema: RunRequestSchema } }, required: false },
  },
  responses: {
    200: jsonResponse(RunResponseSchema, 'What each job did'),
    ...errorResponses(400, 401, 404, 413, 415),
  },
})

const statsRoute = createRoute({
  method: 'get',
  path: '/api/v1/consolidation/stats',
  tags: ['consolidation'],
  summary: 'Measured consolidation statistics of a tenant',
  request: { query: TenantQuerySchema },
  responses: {
    200: jsonResponse(StatsResponseSchema, 'One row per day and job type, newest first'),
    ...errorResponses(400, 401, 404),
  },
})

const jobsRoute = createRoute({
  method: 'get',
  path: '/api/v1/consolidation/jobs',
  tags: ['consolidation'],
  summary: 'Recent consolidation jobs of a tenant',
  request: { query: JobsQuerySchema },
  responses: {
    200: jsonResponse(JobsResponseSchema, 'Jobs, newest first'),
    ...errorResponses(400, 401, 404),
  },
})

/** Adds the consolidation endpoints to `app`. */
export function addConsolidationRoutes(app: OpenAPIHono<ApiEnv>, service: ServiceApi): void {
  app.openapi(runRoute, async (c) => {
    const body = RunRequestSchema.parse(c.req.valid('json'))
    const tenantId = await requestTenant(c, service, body.tenant_id)
    const asOf = body.as_of === undefined ? undefined : new Date(body.as_of)
    return c.json(await service.runConsolidation(tenantId, body.job_type, asOf), 200)
  })

  app.openapi(statsRoute, async (c) => {
    const tenantId = await requestTenant(c, service, c.req.valid('query').tenant_id)
    return c.json(await service.consolidationStats(tenantId), 200)
  })

  app.openapi(jobsRoute, async (c) => {
    const query = c.req.valid('query')
    const tenantId = await requestTenant(c, service, query.tenant_id)
    return c.json(
      await service.consolidationJobs(tenantId, { status: query.status, limit: query.limit }),
      200,
    )
  })
}
