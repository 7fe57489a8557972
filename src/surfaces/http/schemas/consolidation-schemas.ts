/** The seed's three consolidation endpoints, on core/service's request and response shapes. */
import {
  ConsolidationJobSchema,
  ConsolidationJobsResponseSchema,
  ConsolidationRunRequestSchema,
  ConsolidationRunResponseSchema,
  ConsolidationStatSchema,
  ConsolidationStatsResponseSchema,
  JobResultSchema,
  JobsQuerySchema as CoreJobsQuerySchema,
} from '../../../core/service/consolidation-job.ts'
import { InstantSchema, limitParameter, TenantIdSchema } from './common-schemas.ts'

// Named once, so /openapi.json lists each as a component the answers refer to.
JobResultSchema.openapi('JobResult')
ConsolidationJobSchema.openapi('Job')
ConsolidationStatSchema.openapi('Stat')

/**
 * `POST /api/v1/consolidation/run`. `tenant_id` defaults to the key's tenant (with a key) rather
 * than to 'default', so a key never names a tenant it did not mean.
 */
export const RunRequestSchema = ConsolidationRunRequestSchema.extend({
  tenant_id: TenantIdSchema.optional(),
  as_of: InstantSchema.optional().openapi({
    description: 'Run as if it were this instant (default: now); ages are counted from it',
  }),
})
  .strict()
  .openapi('RunRequest')

/** The seed's run answer. */
export const RunResponseSchema = ConsolidationRunResponseSchema.openapi('RunResponse')

/** The seed's stats answer. */
export const StatsResponseSchema = ConsolidationStatsResponseSchema.openapi('StatsResponse')

/** `GET /api/v1/consolidation/jobs?status=&limit=`. */
export const JobsQuerySchema = CoreJobsQuerySchema.extend({
  tenant_id: TenantIdSchema.optional(),
  limit: limitParameter(50),
})

/** The seed's jobs answer. */
export const JobsResponseSchema = ConsolidationJobsResponseSchema.openapi('JobsResponse')
