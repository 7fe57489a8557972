/**
 * Runs a job this worker has claimed to its end: `completed`, `failed` with the error (retried
 * after a backoff, or dead-lettered at the retry limit), or back to `pending` if the worker was
 * asked to stop (the work done so far is committed and the next run picks up the rest). Every
 * batch adds its counts to the job row in its own transaction, so the row is exact across
 * attempts and take-overs. The lease is renewed after every batch and on a timer, so a slow model
 * call does not look like a dead worker; a worker that lost its lease stops writing.
 */

import { isSomnusError } from '../../engine/core/errors.ts'
import type { ConsolidationJob, JobType } from '../core/consolidation-job.ts'
import type { FailedAs, JobKey } from '../ports/service-stores.ts'
import { archiveDecisions } from './archive-decisions.ts'
import { compressHandoffs } from './compress-handoffs.ts'
import { consolidateIdentity } from './consolidate-identity.ts'
import type { JobContext, JobOutcome, JobTally } from './job-context.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Each job type's work. */
const JOBS: Record<
  JobType,
  (dependencies: ServiceDependencies, context: JobContext) => Promise<JobOutcome>
> = {
  identity_consolidation: consolidateIdentity,
  handoff_compression: compressHandoffs,
  decision_archival: archiveDecisions,
}

/** How a claimed job ended for this worker. */
export type JobEnd =
  | { status: 'completed'; job: ConsolidationJob; outcome: JobOutcome }
  /** Failed: `failed` is retried after a backoff, `dead` is dead-lettered (the retry limit). */
  | { status: 'failed'; job: ConsolidationJob; error: string; as: FailedAs }
  /** Stopped on the signal and put back to pending. */
  | { status: 'released'; job: ConsolidationJob; outcome: JobOutcome }
  /** Another worker took the job over (this one was too slow to report); it wrote nothing more. */
  | { status: 'lost'; job: ConsolidationJob }

/** Thrown inside a job when its lease is gone. */
class LeaseLost extends Error {}

/** Options of one run. */
export interface RunJobOptions {
  workerId: string
  signal?: AbortSignal | undefined
  /** Called after every batch with this run's counts so far. */
  onProgress?: ((job: ConsolidationJob, tally: JobTally) => void) | undefined
}

/** Runs `job` (claimed by `options.workerId`) to its end. */
export async function runClaimedJob(
  dependencies: ServiceDependencies,
  job: ConsolidationJob,
  options: RunJobOptions,
): Promise<JobEnd> {
  const { stores, clock, config } = dependencies
  const key: JobKey = { tenant_id: job.tenant_id, job_id: job.job_id }
  const asOf = job.as_of ? new Date(job.as_of) : clock.now()
  let lost = false
  const renew = async () => {
    if (lost) return
    if (!(await stores.jobs.heartbeat(key, options.workerId))) lost = true
  }
  // Renew the lease on a timer as well, so one long model call is not taken for a dead worker.
  const timer = setInterval(
    () => {
      renew().catch(() => {})
    },
    Math.max(200, (config.job_timeout_seconds * 1000) / 3),
  )
  timer.unref()
  const context: JobContext = {
    tenantId: job.tenant_id,
    asOf,
    statDate: asOf.toISOString().slice(0, 10),
    signal: options.signal,
    record: async (inside, delta) => {
      // In the batch's transaction: a worker that lost the job rolls its batch back here.
      if (!(await inside.jobs.addProgress(key, options.workerId, delta))) {
        lost = true
        throw new LeaseLost()
      }
    },
    report: async (tally) => {
      await renew()
      if (lost) throw new LeaseLost()
      options.onProgress?.(job, { ...tally })
    },
  }
  try {
    const outcome = await JOBS[job.job_type](dependencies, context)
    if (outcome.stopped) {
      const released = await stores.jobs.release(key, options.workerId)
      return released ? { status: 'released', job, outcome } : { status: 'lost', job }
    }
    const metadata = { ...job.metadata, as_of: asOf.toISOString(), details: outcome.details }
    const completed = await stores.jobs.complete(key, options.workerId, metadata)
    return completed ? { status: 'completed', job, outcome } : { status: 'lost', job }
  } catch (error) {
    if (error instanceof LeaseLost) return { status: 'lost', job }
    const message = isSomnusError(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error)
    const failed = await stores.jobs.fail(key, options.workerId, message, {
      maxFailures: config.job_max_failures,
      backoffSeconds: config.job_retry_backoff_seconds,
    })
    return failed ? { status: 'failed', job, error: message, as: failed } : { status: 'lost', job }
  } finally {
    clearInterval(timer)
  }
}
