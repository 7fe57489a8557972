/** The seed's two read endpoints as use cases: stats with their total, and recent jobs. */
import type {
  ConsolidationJobsResponse,
  ConsolidationStatsResponse,
  JobStatus,
} from '../core/consolidation-job.ts'
import { requireTenant } from './create-handoffs.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Days of stats returned (one row per day and type). */
const STATS_ROWS = 1000

/** `GET /consolidation/stats`: every stats row, newest day first, and the tokens saved in all. */
export async function getConsolidationStats(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
): Promise<ConsolidationStatsResponse> {
  await requireTenant(dependencies, tenantId)
  const stats = await dependencies.stores.stats.list(tenantId, { limit: STATS_ROWS })
  return {
    success: true,
    tenant_id: tenantId,
    stats,
    total_tokens_saved: stats.reduce((total, row) => total + row.tokens_saved, 0),
  }
}

/** `GET /consolidation/jobs`: the newest jobs, optionally of one status. */
export async function listConsolidationJobs(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
  query: { status?: JobStatus | undefined; limit: number },
): Promise<ConsolidationJobsResponse> {
  await requireTenant(dependencies, tenantId)
  const jobs = await dependencies.stores.jobs.list(tenantId, query)
  return { success: true, tenant_id: tenantId, count: jobs.length, jobs }
}
