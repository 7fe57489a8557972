/**
 * `/dashboard/` on `somnus serve`: one tenant's consolidation at a glance, for whoever holds its
 * API key. The page asks for the key and keeps it in memory (sent as a Bearer header, never in a
 * URL); its one data endpoint, `/dashboard/api/overview`, goes through the API's key check and
 * reads only the key's tenant: tokens saved per day and per job type (consolidation_stats),
 * handoffs by compression level, jobs with status and duration, and principles. Read-only.
 */
import type { Hono } from 'hono'
import type { CompressionLevel } from '../../service/service-values.ts'
import { type ApiEnv, type AuthOptions, apiKeyAuth } from '../http/api-key-auth.ts'
import type { ServiceApi } from '../http/service-api.ts'
import type { DashboardAssets } from './dashboard-assets.ts'
import { redactedJson, SECURITY_HEADERS } from './dashboard-server.ts'

/** What the tenant dashboard reads. */
export interface TenantDashboardOptions {
  api: ServiceApi
  auth: AuthOptions
  assets: DashboardAssets
  /** Handoffs per compression level of a tenant (the handoff store's levelCounts). */
  levelCounts(
    tenantId: string,
  ): Promise<readonly { level: CompressionLevel; count: number; tokens: number }[]>
}

/** The most jobs and principles the page lists. */
const LIST_LIMIT = 1000

/** Adds `/dashboard/` (page, files, data) to the server's app. */
export function addTenantDashboard(app: Hono<ApiEnv>, options: TenantDashboardOptions): void {
  const headers = (type: string) => ({ ...SECURITY_HEADERS, 'Content-Type': type })
  app.get('/dashboard', (c) => c.redirect('/dashboard/', 308))
  app.get('/dashboard/', (c) =>
    c.body(options.assets.html('tenant'), 200, headers('text/html; charset=utf-8')),
  )
  app.get('/dashboard/api/overview', apiKeyAuth(options.api, options.auth), async (c) => {
    // Without keys (loopback only) the tenant is named as the API names it.
    const tenant = c.get('keyTenant') ?? c.req.query('tenant_id') ?? 'default'
    const body = redactedJson(await tenantOverview(options, tenant))
    return c.json(body as Record<string, unknown>, 200, {
      ...SECURITY_HEADERS,
      'Cache-Control': 'no-store',
    })
  })
  app.get('/dashboard/:file', (c) => {
    const name = c.req.param('file')
    const asset = Object.hasOwn(options.assets.files, name) ? options.assets.files[name] : undefined
    if (!asset) return c.notFound()
    return c.body(asset.body, 200, { ...headers(asset.type), 'Cache-Control': 'no-cache' })
  })
}

/** Everything the tenant page draws, for one tenant. */
export async function tenantOverview(options: TenantDashboardOptions, tenant: string) {
  const [stats, jobs, levels, principles] = await Promise.all([
    options.api.consolidationStats(tenant),
    options.api.consolidationJobs(tenant, { limit: LIST_LIMIT }),
    options.levelCounts(tenant),
    options.api.listPrinciples(tenant, { limit: LIST_LIMIT }),
  ])
  const sum = (rows: { key: string; value: number }[]) => {
    const totals = new Map<string, number>()
    for (const row of rows) totals.set(row.key, (totals.get(row.key) ?? 0) + row.value)
    return [...totals].map(([key, value]) => ({ key, value }))
  }
  return {
    tenant_id: tenant,
    total_tokens_saved: stats.total_tokens_saved,
    tokens_by_day: sum(stats.stats.map((row) => ({ key: row.stat_date, value: row.tokens_saved })))
      .sort((a, b) => a.key.localeCompare(b.key))
      .map(({ key, value }) => ({ day: key, tokens_saved: value })),
    tokens_by_job_type: sum(
      stats.stats.map((row) => ({ key: row.compression_type, value: row.tokens_saved })),
    ).map(({ key, value }) => ({ job_type: key, tokens_saved: value })),
    handoffs_by_level: levels.map((row) => ({
      level: row.level,
      count: row.count,
      tokens: row.tokens,
    })),
    jobs: jobs.jobs.map((job) => ({
      job_id: job.job_id,
      job_type: job.job_type,
      status: job.status,
      created_at: job.created_at,
      started_at: job.started_at,
      completed_at: job.completed_at,
      duration_ms:
        job.started_at && job.completed_at
          ? Date.parse(job.completed_at) - Date.parse(job.started_at)
          : null,
      items_processed: job.items_processed,
      tokens_saved: job.tokens_saved,
      error_message: job.error_message,
    })),
    principles: principles.items.map((principle) => ({
      decision_id: principle.decision_id,
      decision: principle.decision,
      rationale: principle.rationale,
      sources: principle.sources.length,
      created_at: principle.created_at,
    })),
  }
}
