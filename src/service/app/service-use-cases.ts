/**
 * The service's use cases bound to its dependencies: tenants and keys, handoffs, decisions and
 * principles, queued consolidation, health and metrics. Surfaces (HTTP, CLI) call these and never
 * the stores, so every rule lives here or in the use case each one names.
 */
import type { ConsolidationQueuedResponse, RunJobType } from '../core/consolidation-job.ts'
import type { DecisionInput, DecisionStatus } from '../core/decision.ts'
import type { PageRequest } from '../ports/service-stores.ts'
import { databaseHealthCheck } from './database-health.ts'
import { deleteDecision, deleteHandoff, deleteTenantRows } from './delete-records.ts'
import {
  awaitConsolidation,
  enqueueConsolidation,
  queuedResponse,
} from './enqueue-consolidation.ts'
import { handoffIngest } from './handoff-ingest.ts'
import {
  createApiKey,
  createTenant,
  listApiKeys,
  randomSecret,
  revokeApiKey,
  tenantForApiKey,
} from './manage-tenants.ts'
import { recordDecision } from './record-decision.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** What the bound use cases need beyond the dependencies. */
export interface ServiceUseCaseOptions {
  /** When a database statement last succeeded (ms since the epoch), or null: for `/health`. */
  lastDatabaseAnswerAt?: (() => number | null) | undefined
  /** A new API key secret (default: 32 random bytes). */
  secret?: (() => string) | undefined
}

/** The use cases of `serviceUseCases`, as SomnusService exposes them. */
export type ServiceUseCases = ReturnType<typeof serviceUseCases>

/** Binds the service's use cases to `dependencies`. */
export function serviceUseCases(
  dependencies: ServiceDependencies,
  options: ServiceUseCaseOptions = {},
) {
  const { stores } = dependencies
  const tenantDependencies = { ...dependencies, secret: options.secret ?? randomSecret }
  return {
    /** The tenant an API key belongs to, or null for an unknown or revoked key. */
    tenantForKey: (apiKey: string) => tenantForApiKey(stores.tenants, apiKey),
    /** True when the tenant exists. */
    tenantExists: async (tenantId: string) => (await stores.tenants.get(tenantId)) !== null,
    /** Creates a tenant and its first API key (shown once). */
    createTenant: (input: {
      tenantId: string
      name?: string | undefined
      label?: string | undefined
    }) => createTenant(tenantDependencies, input),
    /** Every tenant. */
    listTenants: () => stores.tenants.list(),
    /** What the tenant holds (rows by kind), or null when there is no such tenant. */
    tenantHoldings: async (tenantId: string) =>
      (await stores.tenants.get(tenantId)) === null ? null : stores.tenants.holdings(tenantId),
    /** Deletes the tenant and every row it has; what it held, or null when there was none. */
    deleteTenant: (tenantId: string) => deleteTenantRows(dependencies, tenantId),
    /** Makes a new key for an existing tenant (shown once). */
    createApiKey: (tenantId: string, label: string) =>
      createApiKey(tenantDependencies, tenantId, label),
    /** The tenant's keys, revoked ones included, without their hashes. */
    listApiKeys: (tenantId: string) => listApiKeys(dependencies, tenantId),
    /** Revokes one key of the tenant. */
    revokeApiKey: (tenantId: string, keyId: string) => revokeApiKey(dependencies, tenantId, keyId),
    /**
     * Opens a handoff ingest for a server: single handoffs, checked and batched into multi-row
     * inserts; drain it before closing.
     */
    openHandoffIngest: () => handoffIngest(dependencies),
    /** One page of the tenant's handoffs, newest first. */
    listHandoffs: (tenantId: string, page: Parameters<typeof stores.handoffs.list>[1]) =>
      stores.handoffs.list(tenantId, page),
    /** One handoff of the tenant, or null. */
    getHandoff: (tenantId: string, handoffId: string) => stores.handoffs.get(tenantId, handoffId),
    /** Deletes a handoff (and its id from what cites it); false if the tenant has none by that id. */
    deleteHandoff: async (tenantId: string, handoffId: string) =>
      (await deleteHandoff(dependencies, tenantId, handoffId)) !== null,
    /** The tenant's handoffs and tokens at each compression level. */
    handoffLevelCounts: (tenantId: string) => stores.handoffs.levelCounts(tenantId),
    /** Records a decision a client sends (redacted, active). */
    recordDecision: (tenantId: string, input: DecisionInput) =>
      recordDecision(dependencies, tenantId, input),
    /** One page of the tenant's decisions, newest first. */
    listDecisions: (
      tenantId: string,
      page: PageRequest & { status?: DecisionStatus | undefined },
    ) => stores.decisions.list(tenantId, page),
    /** One decision or principle of the tenant, or null. */
    getDecision: (tenantId: string, decisionId: string) =>
      stores.decisions.get(tenantId, decisionId),
    /** Deletes a decision or principle; false if the tenant has none by that id. */
    deleteDecision: async (tenantId: string, decisionId: string) =>
      (await deleteDecision(dependencies, tenantId, decisionId)) !== null,
    /** Principles (decisions of kind principle, scope global), newest first. */
    listPrinciples: (tenantId: string, page: PageRequest) =>
      stores.decisions.list(tenantId, { ...page, kind: 'principle' }),
    /** Queues the jobs of a run for a worker; answers at once with them (pending). */
    enqueueConsolidation: async (tenantId: string, jobType: RunJobType, asOf: Date | undefined) => {
      const jobs = await enqueueConsolidation(dependencies, { tenantId, jobType, asOf })
      return queuedResponse(tenantId, jobType, jobs, dependencies.clock.now().toISOString())
    },
    /** Waits for a queued run's jobs to end and answers, as the seed does, with what each did. */
    awaitConsolidation: (queued: ConsolidationQueuedResponse, signal: AbortSignal | undefined) =>
      awaitConsolidation(
        dependencies,
        {
          tenantId: queued.tenant_id,
          jobType: queued.job_type,
          jobs: queued.jobs.map((job) => ({ ...job, tenant_id: queued.tenant_id })),
        },
        { signal },
      ),
    /** One job of the tenant, or null. */
    getJob: (tenantId: string, jobId: string) => stores.jobs.get(tenantId, jobId),
    /**
     * How the database was found answering (a probe now, or a statement moments ago while the
     * probe waits behind other work: PGlite runs one at a time); throws when it does not answer.
     */
    checkHealth: databaseHealthCheck({
      probe: () => stores.tenants.get('default'),
      lastAnswerAt: () => options.lastDatabaseAnswerAt?.() ?? null,
      now: Date.now,
    }),
    /** Figures for `/metrics`, over every tenant: jobs by status, the queue's depth, tokens saved. */
    metricsSnapshot: async () => {
      const [queue, tokensSaved] = await Promise.all([
        stores.jobs.queueCounts(),
        stores.stats.totalTokensSaved(),
      ])
      return { jobs: queue.byStatus, queueDepth: queue.due, tokensSaved }
    },
  }
}
