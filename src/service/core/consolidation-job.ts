/**
 * Consolidation jobs and their stats (seed 003's `consolidation_jobs` and `consolidation_stats`,
 * docs/design/origins.md), and the request and response shapes of `POST /consolidation/run`, `GET
 * /consolidation/jobs` and `GET /consolidation/stats`.
 */
import * as z from 'zod'
import { INSTANT_RANGE_MESSAGE, isStorableInstant } from './client-values.ts'

/**
 * The job types that do something. The seed also lists `chunk_reorganization` as future work;
 * Somnus does not implement it, so it is not a valid type (a job that did nothing would lie).
 */
export const JOB_TYPES = [
  'identity_consolidation',
  'handoff_compression',
  'decision_archival',
] as const

/** A job type. */
export const JobTypeSchema = z.enum(JOB_TYPES)
/** A job type. */
export type JobType = z.infer<typeof JobTypeSchema>

/** `all` runs every type in the seed's order: identity, compression, archival. */
export const RunJobTypeSchema = z.enum(['all', ...JOB_TYPES])
/** A job type or `all`. */
export type RunJobType = z.infer<typeof RunJobTypeSchema>

/**
 * `pending` → `running` → `completed`, or `failed` (retried at `run_after`, after a backoff) and,
 * once it has failed as often as the retry policy allows, `dead` (dead-lettered: never run again).
 */
export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed', 'dead'] as const

/** A job's status (see JOB_STATUSES). */
export const JobStatusSchema = z.enum(JOB_STATUSES)
/** A job's status. */
export type JobStatus = z.infer<typeof JobStatusSchema>

/** A stored job. */
export const ConsolidationJobSchema = z.object({
  job_id: z.string(),
  tenant_id: z.string(),
  job_type: JobTypeSchema,
  status: JobStatusSchema,
  /** The scheduler's slot for a scheduled run (unique per tenant and type); null for a manual run. */
  scheduled_for: z.string().nullable(),
  /** What "now" means for this job (ages are counted to it); null: the moment it runs. */
  as_of: z.string().nullable(),
  /** When its first attempt started (a retry or a take-over keeps it). */
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /** Counted over every attempt, batch by batch as each commits: a take-over adds to them. */
  items_processed: z.number().int(),
  items_affected: z.number().int(),
  /** Measured tokens saved, over every attempt (active tokens before minus after). */
  tokens_saved: z.number().int(),
  /** The last failure's message (an error, or a worker that stopped reporting). */
  error_message: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  /** The worker running it; its lease ends when `heartbeat_at` is older than the job timeout. */
  worker_id: z.string().nullable(),
  heartbeat_at: z.string().nullable(),
  /** Times a worker started it (a take-over and a release's resumption included). */
  attempts: z.number().int(),
  /** Attempts that failed or whose worker died; at the policy's limit the job is `dead`. */
  failures: z.number().int(),
  /** A failed job's next try: not before this instant. */
  run_after: z.string().nullable(),
})
/** A stored job. */
export type ConsolidationJob = z.infer<typeof ConsolidationJobSchema>

/** The body of `POST /api/v1/consolidation/run`. */
export const ConsolidationRunRequestSchema = z.object({
  tenant_id: z.string().min(1).max(200).default('default'),
  job_type: RunJobTypeSchema.default('all'),
  /** Somnus's addition: what "now" means (default: the current time). */
  as_of: z.iso
    .datetime({ offset: true })
    .refine(isStorableInstant, INSTANT_RANGE_MESSAGE)
    .optional(),
})
/** A run request. */
export type ConsolidationRunRequest = z.infer<typeof ConsolidationRunRequestSchema>

/** What one job did, as the seed's run response lists it. */
export const JobResultSchema = z.object({
  job_id: z.string(),
  job_type: JobTypeSchema,
  items_processed: z.number().int(),
  items_affected: z.number().int(),
  /** Measured: tokens of the active text before minus after. */
  tokens_saved: z.number().int(),
  details: z.record(z.string(), z.unknown()),
})
/** One job's result. */
export type JobResult = z.infer<typeof JobResultSchema>

/** The response of `POST /api/v1/consolidation/run`. */
export const ConsolidationRunResponseSchema = z.object({
  success: z.boolean(),
  tenant_id: z.string(),
  job_type: RunJobTypeSchema,
  results: z.array(JobResultSchema),
  timestamp: z.string(),
})
/** A run response. */
export type ConsolidationRunResponse = z.infer<typeof ConsolidationRunResponseSchema>

/** One row of `consolidation_stats`: per tenant, day and job type, counts and tokens measured. */
export const ConsolidationStatSchema = z.object({
  stat_date: z.string(),
  compression_type: JobTypeSchema,
  before_count: z.number().int(),
  before_tokens: z.number().int(),
  after_count: z.number().int(),
  after_tokens: z.number().int(),
  tokens_saved: z.number().int(),
  percentage_saved: z.number(),
})
/** A stats row. */
export type ConsolidationStat = z.infer<typeof ConsolidationStatSchema>

/** A job as `POST /consolidation/run` answers before it has run: what to look for later. */
export const QueuedJobSchema = z.object({
  job_id: z.string(),
  job_type: JobTypeSchema,
  status: JobStatusSchema,
})

/**
 * The response of `POST /api/v1/consolidation/run` without `?wait=true`: the jobs are queued, a
 * worker runs them; `GET /api/v1/consolidation/jobs/{job_id}` tells how each went.
 */
export const ConsolidationQueuedResponseSchema = z.object({
  success: z.boolean(),
  tenant_id: z.string(),
  job_type: RunJobTypeSchema,
  jobs: z.array(QueuedJobSchema),
  timestamp: z.string(),
})
/** A queued-run response. */
export type ConsolidationQueuedResponse = z.infer<typeof ConsolidationQueuedResponseSchema>

/** The response of `GET /api/v1/consolidation/stats`. */
export const ConsolidationStatsResponseSchema = z.object({
  success: z.boolean(),
  tenant_id: z.string(),
  stats: z.array(ConsolidationStatSchema),
  total_tokens_saved: z.number().int(),
})
/** A stats response. */
export type ConsolidationStatsResponse = z.infer<typeof ConsolidationStatsResponseSchema>

/** The query of `GET /api/v1/consolidation/jobs`. */
export const JobsQuerySchema = z.object({
  tenant_id: z.string().min(1).max(200).default('default'),
  status: JobStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
})
/** A jobs query. */
export type JobsQuery = z.infer<typeof JobsQuerySchema>

/** The response of `GET /api/v1/consolidation/jobs`. */
export const ConsolidationJobsResponseSchema = z.object({
  success: z.boolean(),
  tenant_id: z.string(),
  count: z.number().int(),
  jobs: z.array(ConsolidationJobSchema),
})
/** A jobs response. */
export type ConsolidationJobsResponse = z.infer<typeof ConsolidationJobsResponseSchema>
