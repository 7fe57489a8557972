/**
 * Runs a job this worker has claimed to its end: `completed` with its counts, `failed` with the
 * error, or back to `pending` if the worker was asked to stop (the work done so far is committed
 * and the next run picks up the rest). The lease is renewed after every batch and on a timer, so a
 * slow model call does not look like a dead worker; a worker that lost its lease stops writing.
 */

import { isSomnusError } from '../../core/errors.ts'
import type { ConsolidationJob, JobType } from '../../core/service/consolidation-job.ts'
import type { JobProgress } from '../../ports/service-stores.ts'
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
  | { status: 'failed'; job: ConsolidationJob; error: string }
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
  /** Called after every batch with the counts so far. */
  onProgress?: ((job: ConsolidationJob, tally: JobTally) => void) | undefined
}

/** Runs `job` (claimed by `options.workerId`) to its end. */
export async function runClaimedJob(
  dependencies: ServiceDependencies,
  job: ConsolidationJob,
  options: RunJobOptions,
): Promise<JobEnd> {
  const { stores, clock, config } = dependencies
  const asOf = job.as_of ? new Date(job.as_of) : clock.now()
  let latest: JobTally = { items_processed: 0, items_affected: 0, tokens_saved: 0 }
  let lost = false
  const progressOf = (tally: JobTally, extra: Record<string, unknown> = {}): JobProgress => ({
    items_processed: tally.items_processed,
    items_affected: tally.items_affected,
    metadata: {
      ...job.metadata,
      tokens_saved: tally.tokens_saved,
      as_of: asOf.toISOString(),
      ...extra,
    },
  })
  const renew = async () => {
    if (lost) return
    const held = await stores.jobs.heartbeat(job.job_id, options.workerId, progressOf(latest))
    if (!held) lost = true
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
    report: async (tally) => {
      latest = { ...tally }
      await renew()
      if (lost) throw new LeaseLost()
      options.onProgress?.(job, latest)
    },
  }
  try {
    const outcome = await JOBS[job.job_type](dependencies, context)
    latest = outcome
    const progress = progressOf(outcome, { details: outcome.details })
    if (outcome.stopped) {
      const released = await stores.jobs.release(job.job_id, options.workerId, progress)
      return released ? { status: 'released', job, outcome } : { status: 'lost', job }
    }
    const completed = await stores.jobs.complete(job.job_id, options.workerId, progress)
    return completed ? { status: 'completed', job, outcome } : { status: 'lost', job }
  } catch (error) {
    if (error instanceof LeaseLost) return { status: 'lost', job }
    const message = isSomnusError(error)
      ? error.message
      : error instanceof Error
        ? error.message
        : String(error)
    const failed = await stores.jobs.fail(job.job_id, options.workerId, message, progressOf(latest))
    return failed ? { status: 'failed', job, error: message } : { status: 'lost', job }
  } finally {
    clearInterval(timer)
  }
}
