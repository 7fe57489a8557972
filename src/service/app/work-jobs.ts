/**
 * A worker: claims the oldest pending job (or one whose worker died), runs it, and repeats until
 * its signal fires. Several workers on one PostgreSQL share the queue; `FOR UPDATE SKIP LOCKED`
 * keeps any job from running twice at once.
 */

import type { ConsolidationJob } from '../core/consolidation-job.ts'
import type { JobTally } from './job-context.ts'
import type { JobEnd } from './run-claimed-job.ts'
import { runClaimedJob } from './run-claimed-job.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** How a worker runs. */
export interface WorkJobsOptions {
  workerId: string
  /** Stops the worker: a running job finishes its batch and goes back to pending. */
  signal: AbortSignal
  /** Wait between looks at an empty queue. */
  pollMs?: number
  /** Stop once the queue is empty instead of waiting for more. */
  untilEmpty?: boolean
  onJobStart?: (job: ConsolidationJob) => void
  onProgress?: (job: ConsolidationJob, tally: JobTally) => void
  onJobEnd?: (end: JobEnd) => void
}

/** Runs jobs until the signal fires (or the queue is empty with `untilEmpty`); returns how many ended. */
export async function workJobs(
  dependencies: ServiceDependencies,
  options: WorkJobsOptions,
): Promise<number> {
  let ended = 0
  while (!options.signal.aborted) {
    const job = await dependencies.stores.jobs.claim(options.workerId, {
      timeoutSeconds: dependencies.config.job_timeout_seconds,
      maxFailures: dependencies.config.job_max_failures,
    })
    if (!job) {
      if (options.untilEmpty) break
      await pause(options.pollMs ?? 1000, options.signal)
      continue
    }
    options.onJobStart?.(job)
    const end = await runClaimedJob(dependencies, job, {
      workerId: options.workerId,
      signal: options.signal,
      onProgress: options.onProgress,
    })
    ended += 1
    options.onJobEnd?.(end)
  }
  return ended
}

/** Waits `ms`, or less if the signal fires. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
