/**
 * The consolidation service's stores (seed 003's tables), by role: handoffs, decisions and
 * principles, jobs, stats, tenants and API keys. One SQL adapter implements them on PGlite and on
 * PostgreSQL; `service-stores.contract.ts` is the suite both pass. Times are ISO 8601 strings.
 */
import type {
  ConsolidationJob,
  ConsolidationStat,
  JobStatus,
  JobType,
} from '../core/service/consolidation-job.ts'
import type { Decision, DecisionKind, DecisionStatus } from '../core/service/decision.ts'
import type { CompressionLevel, Handoff } from '../core/service/handoff.ts'
import type { ApiKey, Tenant } from '../core/service/tenant.ts'

/** A page of items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[]
  next_cursor: string | null
}

/** Paging of a list: at most `limit` items after `cursor` (an opaque string from the last page). */
export interface PageRequest {
  limit: number
  cursor?: string | undefined
}

/** The levels one compression step adds to a handoff, applied only if it is still at `from`. */
export interface CompressionUpdate {
  handoff_id: string
  from: CompressionLevel
  to: CompressionLevel
  /** Null keeps what is there. */
  summary: { text: string; sources: string[]; tokens: number } | null
  quick_ref: { text: string; sources: string[]; tokens: number } | null
  consolidated_at: string
}

/** The instants before which a handoff was made old enough for each level. */
export interface LevelCutoffs {
  summary: string
  quick_ref: string
  integrated: string
}

/**
 * The token budgets of the made levels: a level is made only for a text longer than its budget
 * (a shorter one is its own summary), so a short handoff is never fetched again for it.
 */
export interface LevelBudgets {
  summary: number
  quick_ref: number
}

/** Session handoffs: inserted whole, then only gain levels. */
export interface HandoffStore {
  /** Inserts new handoffs; an existing id is an error (`INVALID_INPUT`) and nothing is inserted. */
  insert(handoffs: readonly Handoff[]): Promise<void>
  get(tenantId: string, handoffId: string): Promise<Handoff | null>
  /** Newest first (created_at, then id). */
  list(
    tenantId: string,
    request: PageRequest & { level?: CompressionLevel | undefined },
  ): Promise<Page<Handoff>>
  /**
   * Handoffs whose age has outgrown their level or that lack a level their age needs, in id order
   * after `afterId`: the work list of one compression batch. Past the integration cutoff, only a
   * handoff folded into a principle (`integrated_into` set) still has a level to reach.
   */
  findCompressible(
    tenantId: string,
    request: {
      cutoffs: LevelCutoffs
      budgets: LevelBudgets
      afterId: string | null
      limit: number
    },
  ): Promise<Handoff[]>
  /** Applies the updates whose handoff is still at `from`; returns the ids it changed. */
  applyCompression(tenantId: string, updates: readonly CompressionUpdate[]): Promise<string[]>
  /** Non-empty "becoming" statements not yet consolidated into a principle, in id order after `afterId`. */
  findUnintegratedBecoming(
    tenantId: string,
    request: { limit: number; afterId: string | null },
  ): Promise<{ handoff_id: string; becoming: string }[]>
  /** Links handoffs to the principle their "becoming" statement was merged into. */
  markIntegrated(
    tenantId: string,
    handoffIds: readonly string[],
    principleId: string,
  ): Promise<void>
  /** Count and summed active-level tokens per level (the monitoring view). */
  levelCounts(
    tenantId: string,
  ): Promise<{ level: CompressionLevel; count: number; tokens: number }[]>
}

/** Decisions and principles. */
export interface DecisionStore {
  /** Inserts a decision; an existing id is an error (`INVALID_INPUT`). */
  insert(decision: Decision): Promise<void>
  get(tenantId: string, decisionId: string): Promise<Decision | null>
  /** Newest first. */
  list(
    tenantId: string,
    request: PageRequest & {
      status?: DecisionStatus | undefined
      kind?: DecisionKind | undefined
    },
  ): Promise<Page<Decision>>
  /** Active principles, oldest first. */
  activePrinciples(tenantId: string): Promise<Decision[]>
  /** Adds `sources` to a principle's (union, order kept) and stamps `updated_at`. */
  addSources(
    tenantId: string,
    decisionId: string,
    sources: readonly string[],
    at: string,
  ): Promise<void>
  /**
   * Marks active plain decisions (not principles) created before `cutoff` superseded at `at`;
   * returns those it changed.
   */
  archiveOlderThan(tenantId: string, cutoff: string, at: string): Promise<Decision[]>
}

/** A job to add: pending, with its slot if the scheduler made it. */
export interface NewJob {
  job_id: string
  tenant_id: string
  job_type: JobType
  scheduled_for: string | null
  as_of: string | null
  metadata: Record<string, unknown>
  created_at: string
}

/** How far a running job got. */
export interface JobProgress {
  items_processed: number
  items_affected: number
  metadata: Record<string, unknown>
}

/** Consolidation jobs: a queue that several workers on one database share. */
export interface JobStore {
  /** Adds a pending job. */
  enqueue(job: NewJob): Promise<ConsolidationJob>
  /**
   * Adds scheduled jobs, skipping any whose (tenant, type, slot) exists: however many schedulers
   * call this for one slot, each job is added once. Returns the jobs added.
   */
  enqueueScheduled(jobs: readonly NewJob[]): Promise<ConsolidationJob[]>
  /**
   * Takes the oldest pending job, or a running one whose worker has not reported for
   * `timeoutSeconds` (it died), as `workerId`: `running`, attempts + 1. Skips rows another worker is
   * claiming (`FOR UPDATE SKIP LOCKED`), so no job is taken twice. `jobId` limits it to one job.
   */
  claim(
    workerId: string,
    options: { timeoutSeconds: number; jobId?: string | undefined },
  ): Promise<ConsolidationJob | null>
  /** Records progress and renews the lease; false if `workerId` no longer holds the job. */
  heartbeat(jobId: string, workerId: string, progress: JobProgress): Promise<boolean>
  /** Ends the job `completed`; false if `workerId` no longer holds it. */
  complete(jobId: string, workerId: string, progress: JobProgress): Promise<boolean>
  /** Ends the job `failed` with `error`; false if `workerId` no longer holds it. */
  fail(jobId: string, workerId: string, error: string, progress: JobProgress): Promise<boolean>
  /** Puts a job `workerId` holds back to `pending` (a worker stopping), keeping its progress. */
  release(jobId: string, workerId: string, progress: JobProgress): Promise<boolean>
  get(tenantId: string, jobId: string): Promise<ConsolidationJob | null>
  /** Newest first (by created_at), optionally of one status. */
  list(
    tenantId: string,
    request: { status?: JobStatus | undefined; limit: number },
  ): Promise<ConsolidationJob[]>
}

/** What one batch changed, added into its day's row. */
export interface StatsDelta {
  before_count: number
  before_tokens: number
  after_count: number
  after_tokens: number
}

/** `consolidation_stats`: one row per tenant, day and job type. */
export interface StatsStore {
  /** Adds `delta` to the row of (tenant, date, type), creating it at zero first. */
  add(tenantId: string, statDate: string, jobType: JobType, delta: StatsDelta): Promise<void>
  /** Newest day first. */
  list(tenantId: string, request: { limit: number }): Promise<ConsolidationStat[]>
}

/** Tenants and their API keys (hashes only). */
export interface TenantStore {
  /** Creates a tenant; an existing id is an error (`INVALID_INPUT`). */
  create(tenant: Tenant): Promise<void>
  get(tenantId: string): Promise<Tenant | null>
  list(): Promise<Tenant[]>
  addApiKey(key: ApiKey): Promise<void>
  /** The live (not revoked) key with this hash, or null. */
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null>
  listApiKeys(tenantId: string): Promise<ApiKey[]>
  /** Revokes a key at `at`; false if the tenant has no such live key. */
  revokeApiKey(tenantId: string, keyId: string, at: string): Promise<boolean>
}

/** Every store of one database, and transactions over them. */
export interface ServiceStores {
  handoffs: HandoffStore
  decisions: DecisionStore
  jobs: JobStore
  stats: StatsStore
  tenants: TenantStore
  /** Runs `work` with stores whose changes commit together, or not at all if it throws. */
  transaction<T>(work: (stores: ServiceStores) => Promise<T>): Promise<T>
  /** Closes the database connection (pool or embedded instance). */
  close(): Promise<void>
}
