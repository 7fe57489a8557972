/** The seed's three consolidation endpoints, with its request and response shapes. */
import { z } from '@hono/zod-openapi'
import {
  InstantSchema,
  limitParameter,
  SuccessFields,
  TenantIdSchema,
  TenantQuerySchema,
} from './common-schemas.ts'

/** The job types a run accepts, `all` first (every one in the seed's order). */
export const JOB_TYPE_REQUESTS = [
  'all',
  'identity_consolidation',
  'handoff_compression',
  'decision_archival',
  'chunk_reorganization',
] as const

/** The statuses a job row moves through. */
export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed'] as const

/** `POST /api/v1/consolidation/run`. */
export const RunRequestSchema = z
  .strictObject({
    tenant_id: TenantIdSchema.optional(),
    job_type: z.enum(JOB_TYPE_REQUESTS).default('all').openapi({ example: 'all' }),
    as_of: InstantSchema.optional().openapi({
      description: 'Run as if it were this instant (default: now); ages are counted from it',
    }),
  })
  .openapi('RunRequest')

/** What one job of a run did. */
export const JobResultSchema = z
  .object({
    job_type: z.string().openapi({ example: 'handoff_compression' }),
    items_processed: z.number().int(),
    items_affected: z.number().int(),
    tokens_saved: z.number().int().openapi({ description: 'Measured with the tokenizer' }),
    details: z.record(z.string(), z.unknown()),
  })
  .openapi('JobResult')

/** The seed's run answer. */
export const RunResponseSchema = z
  .object({
    ...SuccessFields,
    job_type: z.enum(JOB_TYPE_REQUESTS),
    results: z.array(JobResultSchema),
    timestamp: z.string().openapi({ example: '2026-02-16T10:30:00Z' }),
  })
  .openapi('RunResponse')

/** One row of consolidation_stats: a tenant, a day and a job type, measured. */
export const StatSchema = z
  .object({
    stat_date: z.string().openapi({ example: '2026-02-16' }),
    compression_type: z.string().openapi({ example: 'handoff_compression' }),
    before_count: z.number().int(),
    before_tokens: z.number().int(),
    after_count: z.number().int(),
    after_tokens: z.number().int(),
    tokens_saved: z.number().int(),
    percentage_saved: z.number(),
  })
  .openapi('Stat')

/** The seed's stats answer. */
export const StatsResponseSchema = z
  .object({
    ...SuccessFields,
    stats: z.array(StatSchema),
    total_tokens_saved: z.number().int(),
  })
  .openapi('StatsResponse')

/** `GET /api/v1/consolidation/jobs?status=&limit=`. */
export const JobsQuerySchema = TenantQuerySchema.extend({
  status: z.enum(JOB_STATUSES).optional(),
  limit: limitParameter(50),
})

/** A consolidation job row. */
export const JobSchema = z
  .object({
    job_id: z.string().openapi({ example: 'cj_abc123' }),
    job_type: z.string(),
    status: z.enum(JOB_STATUSES),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    items_processed: z.number().int(),
    items_affected: z.number().int(),
    error_message: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .openapi('Job')

/** The seed's jobs answer. */
export const JobsResponseSchema = z
  .object({ ...SuccessFields, count: z.number().int(), jobs: z.array(JobSchema) })
  .openapi('JobsResponse')
