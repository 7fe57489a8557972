/**
 * The HTTP API's use cases on a consolidation service. Handoffs that arrive together are written
 * as one multi-row insert (insert-batcher.ts): under load, a transaction per request would starve
 * the connection pool. Everything else is one use-case or store call.
 */
import { tenantForApiKey } from '../../app/manage-tenants.ts'
import { prepareHandoff } from '../../app/service/create-handoffs.ts'
import { databaseHealthCheck } from '../../app/service/database-health.ts'
import { deleteDecision, deleteHandoff } from '../../app/service/delete-records.ts'
import {
  awaitConsolidation,
  enqueueConsolidation,
  queuedResponse,
} from '../../app/service/enqueue-consolidation.ts'
import { isSomnusError, SomnusError } from '../../core/errors.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import type { Decision } from '../../core/service/decision.ts'
import type { Handoff } from '../../core/service/handoff.ts'
import type { SomnusService } from '../../create-somnus.ts'
import { insertBatcher } from './insert-batcher.ts'
import type { ServiceApi } from './service-api.ts'

/** How many handoff inserts run at once (the PostgreSQL pool holds a few connections). */
const INSERT_CONCURRENCY = 2

/** The store's refusal of one handoff, naming the field it was about (a client's mistake). */
function withField(error: unknown): unknown {
  if (!isSomnusError(error) || error.code !== 'INVALID_INPUT') return error
  const sqlState = (error.cause as { code?: unknown } | undefined)?.code
  const field =
    sqlState === '23505' ? 'handoff_id' : sqlState === '23503' ? 'parent_handoff_id' : undefined
  if (field === undefined) return error
  return new SomnusError('INVALID_INPUT', `${field}: ${error.message}`, {
    cause: error,
    details: { field },
  })
}

/** How the API behaves as its server stops. */
export interface ServiceApiOptions {
  /** Fires when the server stops: requests waiting for jobs (`?wait=true`) answer 503 at once. */
  stopping?: AbortSignal | undefined
}

/** A ServiceApi on `service`, and `drain()` to wait for inserts in flight (before closing). */
export function serviceApiFor(
  service: Pick<SomnusService, 'stores' | 'dependencies' | 'stats' | 'jobs' | 'searchHandoffs'> &
    Partial<Pick<SomnusService, 'lastDatabaseAnswerAt'>>,
  options: ServiceApiOptions = {},
): ServiceApi & { drain(): Promise<void>; lastHandoffWrite(): number } {
  const { stores, dependencies } = service
  // The service's one id generator (64 random bits), as the CLI and the workers use.
  const newId = (prefix: string) => dependencies.ids.next(prefix)
  const handoffWriter = insertBatcher<Handoff>({
    insertAll: (handoffs) => stores.handoffs.insert(handoffs),
    concurrency: INSERT_CONCURRENCY,
  })
  // A probe queued behind long statements (PGlite runs one at a time) gives way to a recent answer.
  const checkHealth = databaseHealthCheck({
    probe: () => stores.tenants.get('default'),
    lastAnswerAt: () => service.lastDatabaseAnswerAt?.() ?? null,
    now: Date.now,
  })
  // When a handoff was last written (ms since the epoch): the search indexer waits for a lull.
  let lastHandoffWrite = 0
  return {
    lastHandoffWrite: () => lastHandoffWrite,
    tenantForKey: (key) => tenantForApiKey(stores.tenants, key),
    tenantExists: async (tenantId) => (await stores.tenants.get(tenantId)) !== null,
    createHandoff: async (tenantId, input) => {
      const parent = input.parent_handoff_id
      // The parent must be the tenant's own: the column's foreign key alone would accept another
      // tenant's handoff, and its error would tell a key that the id exists elsewhere.
      if (parent && (await stores.handoffs.get(tenantId, parent)) === null) {
        throw new SomnusError(
          'INVALID_INPUT',
          `parent_handoff_id: no handoff "${parent}" for this tenant; name one of its own handoffs.`,
          { details: { field: 'parent_handoff_id' } },
        )
      }
      const handoff = await prepareHandoff(dependencies, tenantId, {
        ...input,
        handoff_id: input.handoff_id ?? newId('ho'),
      })
      lastHandoffWrite = Date.now()
      try {
        await handoffWriter.add(handoff)
      } catch (error) {
        throw withField(error)
      }
      return handoff
    },
    listHandoffs: (tenantId, page) => stores.handoffs.list(tenantId, page),
    getHandoff: (tenantId, handoffId) => stores.handoffs.get(tenantId, handoffId),
    deleteHandoff: async (tenantId, handoffId) =>
      (await deleteHandoff(dependencies, tenantId, handoffId)) !== null,
    searchHandoffs: (tenantId, query) => service.searchHandoffs(tenantId, query),
    createDecision: async (tenantId, input) => {
      const now = dependencies.clock.now().toISOString()
      const decision: Decision = {
        decision_id: input.decision_id ?? newId('dc'),
        tenant_id: tenantId,
        kind: 'decision',
        decision: redactSecrets(input.decision),
        rationale:
          input.rationale === null || input.rationale === undefined
            ? null
            : redactSecrets(input.rationale),
        status: 'active',
        scope: input.scope ?? 'project',
        sources: (input.sources ?? []).map((source) => redactSecrets(source)),
        created_at: new Date(input.created_at ?? now).toISOString(),
        updated_at: now,
        superseded_at: null,
      }
      await stores.decisions.insert(decision)
      return decision
    },
    listDecisions: (tenantId, page) => stores.decisions.list(tenantId, page),
    getDecision: (tenantId, decisionId) => stores.decisions.get(tenantId, decisionId),
    deleteDecision: async (tenantId, decisionId) =>
      (await deleteDecision(dependencies, tenantId, decisionId)) !== null,
    listPrinciples: (tenantId, page) =>
      stores.decisions.list(tenantId, { ...page, kind: 'principle' }),
    enqueueConsolidation: async (tenantId, jobType, asOf) => {
      const jobs = await enqueueConsolidation(dependencies, { tenantId, jobType, asOf })
      return queuedResponse(tenantId, jobType, jobs, dependencies.clock.now().toISOString())
    },
    awaitConsolidation: (queued, signal) =>
      awaitConsolidation(
        dependencies,
        {
          tenantId: queued.tenant_id,
          jobType: queued.job_type,
          jobs: queued.jobs.map((job) => ({ ...job, tenant_id: queued.tenant_id })),
        },
        {
          signal:
            options.stopping === undefined || signal === undefined
              ? (signal ?? options.stopping)
              : AbortSignal.any([signal, options.stopping]),
        },
      ),
    getJob: (tenantId, jobId) => stores.jobs.get(tenantId, jobId),
    consolidationStats: (tenantId) => service.stats(tenantId),
    consolidationJobs: (tenantId, query) => service.jobs(tenantId, query),
    checkHealth,
    metricsSnapshot: async () => {
      const [queue, tokensSaved] = await Promise.all([
        stores.jobs.queueCounts(),
        stores.stats.totalTokensSaved(),
      ])
      return { jobs: queue.byStatus, queueDepth: queue.due, tokensSaved }
    },
    drain: () => handoffWriter.drain(),
  }
}
