/**
 * The scheduler's one action: at a run's slot, add that run's jobs for every tenant. The slot is
 * part of each job's unique key, so however many schedulers fire for one slot, each job is added
 * once; workers then run them. Tenants are read and their jobs written a batch at a time, so any
 * number of tenants fits (one INSERT for every tenant broke PostgreSQL's parameter limit at about
 * 2,730 tenants); a run stopped midway is completed by the next call for the same slot.
 */
import type { JobType } from '../core/consolidation-job.ts'
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

/** Tenants read (and their jobs written) per batch. */
const TENANTS_PER_BATCH = 1000

/** Adds the jobs of `run` at `slot` for every tenant; returns how many this call added. */
export async function enqueueScheduledRun(
  dependencies: Pick<ServiceDependencies, 'stores' | 'ids' | 'clock'>,
  run: ScheduledRun,
  slot: Date,
): Promise<number> {
  const { stores, ids, clock } = dependencies
  const createdAt = clock.now().toISOString()
  let added = 0
  let afterId: string | null = null
  for (;;) {
    const tenants = await stores.tenants.page({ afterId, limit: TENANTS_PER_BATCH })
    if (tenants.length === 0) break
    afterId = tenants[tenants.length - 1]?.tenant_id ?? afterId
    const jobs = await stores.jobs.enqueueScheduled(
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
    added += jobs.length
  }
  return added
}
