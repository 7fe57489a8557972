/** The seed's three consolidation endpoints, on service/core's request and response shapes. */
import * as z from 'zod'
import {
  ConsolidationJobSchema,
  ConsolidationJobsResponseSchema,
  ConsolidationQueuedResponseSchema,
  ConsolidationRunRequestSchema,
  ConsolidationRunResponseSchema,
  ConsolidationStatSchema,
  ConsolidationStatsResponseSchema,
  JobsQuerySchema as CoreJobsQuerySchema,
  JobResultSchema,
} from '../../../service/service-values.ts'
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

/** `POST /api/v1/consolidation/run?wait=true`: wait for the jobs and answer as the seed does. */
export const RunQuerySchema = z.object({
  wait: z.enum(['true', 'false']).optional().meta({
    description:
      "true: answer once the jobs have ended, with what each did (the seed's blocking answer; it needs a worker: this server's, unless it runs with --no-worker, or a somnus worker). Default: answer at once with the queued jobs' ids (202).",
  }),
})

/** The answer to a run that did not wait: the queued jobs. */
export const QueuedResponseSchema = answerComponent(
  ConsolidationQueuedResponseSchema.extend({}),
  'RunQueued',
)

/** `/{job_id}`. */
export const JobIdParamsSchema = z.object({ job_id: z.string().min(1).max(200) })

/** `{ success, tenant_id, job }`. */
export const JobResponseSchema = answerComponent(
  z.object({ success: z.literal(true), tenant_id: z.string(), job: JobComponent }),
  'JobResponse',
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
