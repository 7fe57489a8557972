/**
 * The scheduler's one action: at a run's slot, add that run's jobs for every tenant. The slot is
 * part of each job's unique key, so however many schedulers fire for one slot, each job is added
 * once; workers then run them.
 */
import type { ConsolidationJob, JobType } from '../../core/service/consolidation-job.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** The seed's three runs. */
export type ScheduledRun = 'daily' | 'weekly' | 'monthly'

/**
 * What each run does: daily, light (compress handoffs past 30 days); weekly, medium (identity
 * thread, decisions); monthly, deep (all three, integrating very old sessions).
 */
export const SCHEDULED_JOBS: Record<ScheduledRun, readonly JobType[]> = {
  daily: ['handoff_compression'],
  weekly: ['identity_consolidation', 'decision_archival'],
  monthly: ['identity_consolidation', 'handoff_compression', 'decision_archival'],
}

/** Adds the jobs of `run` at `slot` for every tenant; returns the ones this call added. */
export async function enqueueScheduledRun(
  dependencies: Pick<ServiceDependencies, 'stores' | 'ids' | 'clock'>,
  run: ScheduledRun,
  slot: Date,
): Promise<ConsolidationJob[]> {
  const { stores, ids, clock } = dependencies
  const tenants = await stores.tenants.list()
  const createdAt = clock.now().toISOString()
  return stores.jobs.enqueueScheduled(
    tenants.flatMap((tenant) =>
      SCHEDULED_JOBS[run].map((jobType) => ({
        job_id: ids.next('cj'),
        tenant_id: tenant.tenant_id,
        job_type: jobType,
        scheduled_for: slot.toISOString(),
        as_of: slot.toISOString(),
        metadata: { trigger: 'schedule', run },
        created_at: createdAt,
      })),
    ),
  )
}
