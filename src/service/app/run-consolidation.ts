/**
 * A manual run in this process (seed 003's `consolidation:run`, `somnus consolidate run`,
 * docs/design/origins.md): one job per type (`all`: identity → compression → archival, the seed's
 * order), each queued and run here at once. If a worker claims one first, this waits for that
 * worker to finish it. (The HTTP API queues instead and leaves the running to workers:
 * enqueue-consolidation.ts.)
 */
import { SomnusError } from '../../engine/core/errors.ts'
import type {
  ConsolidationJob,
  ConsolidationRunResponse,
  JobResult,
  RunJobType,
} from '../core/consolidation-job.ts'
import { enqueueConsolidation, jobResult, waitForJob } from './enqueue-consolidation.ts'
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
  const { stores, clock, config } = dependencies
  const queued = await enqueueConsolidation(dependencies, request)
  const results: JobResult[] = []
  const wait = (job: ConsolidationJob) =>
    waitForJob(dependencies, job, { signal: request.signal, pollMs: request.pollMs })
  for (const job of queued) {
    const claimed = await stores.jobs.claim(request.workerId, {
      timeoutSeconds: config.job_timeout_seconds,
      maxFailures: config.job_max_failures,
      job,
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
      finished =
        end.status === 'lost'
          ? await wait(job)
          : ((await stores.jobs.get(job.tenant_id, job.job_id)) ?? claimed)
    } else {
      finished = await wait(job)
    }
    results.push(jobResult(finished))
  }
  return {
    success: results.every((result) => result.details.status === 'completed'),
    tenant_id: request.tenantId,
    job_type: request.jobType,
    results,
    timestamp: clock.now().toISOString(),
  }
}

function stoppedError(end: JobEnd): SomnusError {
  return new SomnusError(
    'ABORTED',
    `Stopped: job ${end.job.job_id} (${end.job.job_type}) went back to pending with its finished batches saved; a worker or the next run completes it.`,
  )
}
