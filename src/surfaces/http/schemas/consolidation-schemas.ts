/** The seed's three consolidation endpoints, on core/service's request and response shapes. */
import * as z from 'zod'
import {
  ConsolidationJobSchema,
  ConsolidationJobsResponseSchema,
  ConsolidationRunRequestSchema,
  ConsolidationRunResponseSchema,
  ConsolidationStatSchema,
  ConsolidationStatsResponseSchema,
  JobsQuerySchema as CoreJobsQuerySchema,
  JobResultSchema,
} from '../../../core/service/consolidation-job.ts'
import { answerComponent, requestComponent } from './api-components.ts'
import { InstantSchema, limitParameter, TenantIdSchema } from './common-schemas.ts'

// Copies (extend({})) are named, so naming never touches core's schemas.
const JobResultComponent = answerComponent(JobResultSchema.extend({}), 'JobResult')
const JobComponent = answerComponent(ConsolidationJobSchema.extend({}), 'Job')
const StatComponent = answerComponent(ConsolidationStatSchema.extend({}), 'Stat')

/**
 * `POST /api/v1/consolidation/run`. `tenant_id` defaults to the key's tenant (with a key) rather
 * than to 'default', so a key never names a tenant it did not mean.
 */
export const RunRequestSchema = requestComponent(
  ConsolidationRunRequestSchema.extend({
    tenant_id: TenantIdSchema.optional(),
    as_of: InstantSchema.optional().meta({
      description: 'Run as if it were this instant (default: now); ages are counted from it',
    }),
  }).strict(),
  'RunRequest',
)

/** The seed's run answer. */
export const RunResponseSchema = answerComponent(
  ConsolidationRunResponseSchema.extend({ results: z.array(JobResultComponent) }),
  'RunResponse',
)

/** The seed's stats answer. */
export const StatsResponseSchema = answerComponent(
  ConsolidationStatsResponseSchema.extend({ stats: z.array(StatComponent) }),
  'StatsResponse',
)

/** `GET /api/v1/consolidation/jobs?status=&limit=`. */
export const JobsQuerySchema = CoreJobsQuerySchema.extend({
  tenant_id: TenantIdSchema.optional(),
  limit: limitParameter(50),
})

/** The seed's jobs answer. */
export const JobsResponseSchema = answerComponent(
  ConsolidationJobsResponseSchema.extend({ jobs: z.array(JobComponent) }),
  'JobsResponse',
)
