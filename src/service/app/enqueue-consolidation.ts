/**
 * A manual run as the HTTP API takes it: its jobs are queued for a worker (this server's, or a
 * `somnus worker` elsewhere) and the request answers at once with their ids; with `?wait=true`
 * it then waits for them to end and answers in the seed's blocking shape. Nothing runs in the
 * request itself, so `serve --no-worker` consolidates nothing in its process.
 */
import { SomnusError } from '../../engine/core/errors.ts'
import {
  type ConsolidationJob,
  type ConsolidationQueuedResponse,
  type ConsolidationRunResponse,
  JOB_TYPES,
  type JobResult,
  type JobType,
  type RunJobType,
} from '../core/consolidation-job.ts'
import { requireTenant } from './create-handoffs.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** The statuses a job does not leave by itself (a `failed` one is retried later by a worker). */
export const ENDED_STATUSES: readonly ConsolidationJob['status'][] = ['completed', 'failed', 'dead']

/** Queues one job per type of `jobType` (`all`: the seed's order) for `tenantId`. */
export async function enqueueConsolidation(
  dependencies: Pick<ServiceDependencies, 'stores' | 'ids' | 'clock'>,
  request: { tenantId: string; jobType: RunJobType; asOf?: Date | undefined },
): Promise<ConsolidationJob[]> {
  const { stores, ids, clock } = dependencies
  await requireTenant(dependencies, request.tenantId)
  const types: readonly JobType[] = request.jobType === 'all' ? JOB_TYPES : [request.jobType]
  const now = clock.now()
  const asOf = (request.asOf ?? now).toISOString()
  return stores.transaction(async (inside) => {
    const jobs: ConsolidationJob[] = []
    for (const [index, jobType] of types.entries()) {
      jobs.push(
        await inside.jobs.enqueue({
          job_id: ids.next('cj'),
          tenant_id: request.tenantId,
          job_type: jobType,
          scheduled_for: null,
          as_of: asOf,
          metadata: { trigger: 'manual' },
          // A millisecond apart: workers take jobs oldest first, so they run in the seed's order.
          created_at: new Date(now.getTime() + index).toISOString(),
        }),
      )
    }
    return jobs
  })
}

/** The answer to a run that did not wait. */
export function queuedResponse(
  tenantId: string,
  jobType: RunJobType,
  jobs: readonly ConsolidationJob[],
  timestamp: string,
): ConsolidationQueuedResponse {
  return {
    success: true,
    tenant_id: tenantId,
    job_type: jobType,
    jobs: jobs.map((job) => ({ job_id: job.job_id, job_type: job.job_type, status: job.status })),
    timestamp,
  }
}

/** One ended job as the seed's run response lists it. */
export function jobResult(job: ConsolidationJob): JobResult {
  return {
    job_id: job.job_id,
    job_type: job.job_type,
    items_processed: job.items_processed,
    items_affected: job.items_affected,
    tokens_saved: job.tokens_saved,
    details: {
      ...((job.metadata.details as Record<string, unknown> | undefined) ?? {}),
      status: job.status,
      attempts: job.attempts,
      ...(job.error_message ? { error: job.error_message } : {}),
      ...(job.status === 'failed' && job.run_after ? { retry_at: job.run_after } : {}),
    },
  }
}

/** Waits until a job has ended (completed, failed or dead) and returns it. */
export async function waitForJob(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  job: Pick<ConsolidationJob, 'tenant_id' | 'job_id'>,
  options: { signal?: AbortSignal | undefined; pollMs?: number | undefined } = {},
): Promise<ConsolidationJob> {
  for (;;) {
    const current = await dependencies.stores.jobs.get(job.tenant_id, job.job_id)
    if (!current) throw new SomnusError('NOT_FOUND', `Job ${job.job_id} disappeared.`)
    if (ENDED_STATUSES.includes(current.status)) return current
    if (options.signal?.aborted) {
      throw new SomnusError(
        'ABORTED',
        `Stopped waiting for job ${job.job_id}; it stays queued for a worker.`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250))
  }
}

/** Waits for `jobs` to end and answers in the seed's blocking shape. */
export async function awaitConsolidation(
  dependencies: Pick<ServiceDependencies, 'stores' | 'clock'>,
  request: {
    tenantId: string
    jobType: RunJobType
    jobs: readonly Pick<ConsolidationJob, 'tenant_id' | 'job_id'>[]
  },
  options: { signal?: AbortSignal | undefined; pollMs?: number | undefined } = {},
): Promise<ConsolidationRunResponse> {
  const results: JobResult[] = []
  for (const job of request.jobs)
    results.push(jobResult(await waitForJob(dependencies, job, options)))
  return {
    success: results.every((result) => result.details.status === 'completed'),
    tenant_id: request.tenantId,
    job_type: request.jobType,
    results,
    timestamp: dependencies.clock.now().toISOString(),
  }
}
