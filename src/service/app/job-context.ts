/** What a running job is given and what it gives back. */
import type { ServiceStores } from '../ports/service-stores.ts'

/** A running job's view of its run. */
export interface JobContext {
  tenantId: string
  /** "Now" for this job: ages are counted to it. */
  asOf: Date
  /** The `consolidation_stats` day its batches add to (asOf's UTC date). */
  statDate: string
  /** Fires when the worker is asked to stop: the job stops after the batch it is in. */
  signal: AbortSignal | undefined
  /**
   * Adds what one batch did to the job's row, inside that batch's transaction (`inside`), so the
   * counts commit with the work; throws (rolling the batch back) if this worker lost the job.
   */
  record(inside: ServiceStores, delta: JobTally): Promise<void>
  /** Says how far the job got after a batch (this run's counts); throws if the job was lost. */
  report(progress: JobTally): Promise<void>
}

/** Counts so far. */
export interface JobTally {
  items_processed: number
  items_affected: number
  /** Measured: active tokens before minus after. */
  tokens_saved: number
}

/** How a job ended. */
export interface JobOutcome extends JobTally {
  details: Record<string, unknown>
  /** True when it stopped early on the signal (its remaining work is left for the next run). */
  stopped: boolean
}
