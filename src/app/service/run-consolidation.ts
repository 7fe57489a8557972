/**
 * A manual run (seed 003's `POST /consolidation/run` and `consolidation:run`): one job per type
 * (`all`: identity → compression → archival, the seed's order), each enqueued and run here at
 * once. If a worker claims one first, this waits for that worker to finish it.
 */
import { SomnusError } from '../../core/errors.ts'
import {
  type ConsolidationJob,
  type ConsolidationRunResponse,
  JOB_TYPES,
  type JobResult,
  type JobType,
  type RunJobType,
} from '../../core/service/consolidation-job.ts'
import { requireTenant } from './create-handoffs.ts'
import type { JobTally } from './job-context.ts'
import { type JobEnd, runClaimedJob } from './run-claimed-job.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** What to run. */
export interface RunConsolidationRequest {
  tenantId: string
  jobType: RunJobType
  /** "Now" for the run (default: the clock's now). */
  asOf?: Date | undefined
  workerId: string
  signal?: AbortSignal | undefined
  onJobStart?: ((job: ConsolidationJob) => void) | undefined
  onProgress?: ((job: ConsolidationJob, tally: JobTally) => void) | undefined
  /** How often to look at a job another worker took (default 250 ms). */
  pollMs?: number
}

/** Runs the request's jobs and answers in the seed's response shape. */
export async function runConsolidation(
  dependencies: ServiceDependencies,
  request: RunConsolidationRequest,
): Promise<ConsolidationRunResponse> {
  const { stores, ids, clock, config } = dependencies
  await requireTenant(dependencies, request.tenantId)
  const types: readonly JobType[] = request.jobType === 'all' ? JOB_TYPES : [request.jobType]
  const results: JobResult[] = []
  let success = true
  for (const jobType of types) {
    const queued = await stores.jobs.enqueue({
      job_id: ids.next('cj'),
      tenant_id: request.tenantId,
      job_type: jobType,
      scheduled_for: null,
      as_of: (request.asOf ?? clock.now()).toISOString(),
      metadata: { trigger: 'manual' },
      created_at: clock.now().toISOString(),
    })
    const claimed = await stores.jobs.claim(request.workerId, {
      timeoutSeconds: config.job_timeout_seconds,
      maxFailures: config.job_max_failures,
      job: queued,
    })
    let finished: ConsolidationJob
    if (claimed) {
      request.onJobStart?.(claimed)
      const end = await runClaimedJob(dependencies, claimed, {
        workerId: request.workerId,
        signal: request.signal,
        onProgress: request.onProgress,
      })
      if (end.status === 'released') throw stoppedError(end)
      finished = (await stores.jobs.get(request.tenantId, queued.job_id)) ?? claimed
      if (end.status === 'lost') finished = await waitForEnd(dependencies, queued, request)
    } else {
      finished = await waitForEnd(dependencies, queued, request)
    }
    if (finished.status !== 'completed') success = false
    results.push({
      job_id: finished.job_id,
      job_type: jobType,
      items_processed: finished.items_processed,
      items_affected: finished.items_affected,
      tokens_saved: finished.tokens_saved,
      details: {
        ...((finished.metadata.details as Record<string, unknown> | undefined) ?? {}),
        status: finished.status,
        ...(finished.error_message ? { error: finished.error_message } : {}),
      },
    })
  }
  return {
    success,
    tenant_id: request.tenantId,
    job_type: request.jobType,
    results,
    timestamp: clock.now().toISOString(),
  }
}

/** Polls a job another worker holds until it is completed or failed. */
async function waitForEnd(
  dependencies: ServiceDependencies,
  job: ConsolidationJob,
  request: RunConsolidationRequest,
): Promise<ConsolidationJob> {
  for (;;) {
    const current = await dependencies.stores.jobs.get(job.tenant_id, job.job_id)
    if (!current) throw new SomnusError('NOT_FOUND', `Job ${job.job_id} disappeared.`)
    if (['completed', 'failed', 'dead'].includes(current.status)) return current
    if (request.signal?.aborted)
      throw new SomnusError(
        'ABORTED',
        `Stopped waiting for job ${job.job_id}; it keeps running in its worker.`,
      )
    await new Promise((resolve) => setTimeout(resolve, request.pollMs ?? 250))
  }
}

function stoppedError(end: JobEnd): SomnusError {
  return new SomnusError(
    'ABORTED',
    `Stopped: job ${end.job.job_id} (${end.job.job_type}) went back to pending with its finished batches saved; a worker or the next run completes it.`,
  )
}
