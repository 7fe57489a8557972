/**
 * The consolidation service's stores (seed 003's tables, docs/design/origins.md), by role:
 * handoffs, decisions and principles, jobs, stats, tenants and API keys. One SQL adapter implements
 * them on PGlite and on PostgreSQL; `service-stores.contract.ts` is the suite both pass. Times are
 * ISO 8601 strings.
 */
import type {
  ConsolidationJob,
  ConsolidationStat,
  JobStatus,
  JobType,
} from '../core/consolidation-job.ts'
import type { Decision, DecisionKind, DecisionStatus } from '../core/decision.ts'
import type { CompressionLevel, Handoff } from '../core/handoff.ts'
import type { SearchLevel } from '../core/handoff-search.ts'
import type { ApiKey, Tenant } from '../core/tenant.ts'

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

export type { SearchLevel } from '../core/handoff-search.ts'

/** Session handoffs: inserted whole, then only gain levels. */
export interface HandoffStore {
  /** Inserts new handoffs; an existing id is an error (`INVALID_INPUT`) and nothing is inserted. */
  insert(handoffs: readonly Handoff[]): Promise<void>
  /**
   * Inserts the handoffs whose (tenant, id) is not taken and skips the others; returns the ids it
   * inserted. What an import re-run uses, so that it never duplicates.
   */
  insertNew(handoffs: readonly Handoff[]): Promise<string[]>
  get(tenantId: string, handoffId: string): Promise<Handoff | null>
  /** Newest first (created_at, then id). */
  list(
    tenantId: string,
    request: PageRequest & { level?: CompressionLevel | undefined },
  ): Promise<Page<Handoff>>
  /**
   * The tenant's handoffs that share a word (in any form: `tests` finds `test`) with `text` at
   * `level` (the original fields and turns, the summary, the quick reference; every level when
   * absent), best first by the database's own full-text rank, at most `limit`: the candidates a
   * search ranks by unit. In step with every write (create, compression, delete), indexed yet or
   * not (see `indexPending`); any
   * characters are words, never query syntax; a text without a searchable word finds none.
   */
  search(
    tenantId: string,
    request: { text: string; level?: SearchLevel | undefined; limit: number },
  ): Promise<Handoff[]>
  /**
   * Indexes for search up to `limit` handoffs of any tenant written since they were last indexed
   * (new ones, and ones whose text compression changed), fewer when their text is large (one
   * statement stays short); returns how many, 0 when none is pending. Work done off the
   * write path, so that ingest never waits for it; `search` reads unindexed handoffs too.
   */
  indexPending(limit: number): Promise<number>
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
  /** How many non-empty "becoming" statements the tenant has, integrated or not. */
  countBecoming(tenantId: string): Promise<number>
  /** Links handoffs to the principle their "becoming" statement was merged into. */
  markIntegrated(
    tenantId: string,
    handoffIds: readonly string[],
    principleId: string,
  ): Promise<void>
  /**
   * Deletes a handoff; returns it, or null if the tenant has none by that id. Its children keep
   * their place without a parent.
   */
  delete(tenantId: string, handoffId: string): Promise<Handoff | null>
  /** Unlinks the handoffs integrated into a principle (it is gone; they may join another). */
  clearIntegration(tenantId: string, principleId: string): Promise<number>
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
  /** Deletes a decision or principle; returns it, or null if the tenant has none by that id. */
  delete(tenantId: string, decisionId: string): Promise<Decision | null>
  /**
   * Forgets a deleted source in every decision of the tenant: its id leaves `sources`, and
   * `quote` (the statement a principle's rationale quotes from it, `- <quote>`) leaves the
   * rationale. Returns how many decisions changed.
   */
  forgetSource(tenantId: string, sourceId: string, quote: string | null): Promise<number>
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

/** Which job: its tenant and its id (ids are the tenant's own). */
export interface JobKey {
  tenant_id: string
  job_id: string
}

/** What one committed batch of a job did, added to the job's row. */
export interface JobDelta {
  items_processed: number
  items_affected: number
  tokens_saved: number
}

/** How failed jobs are retried. */
export interface RetryPolicy {
  /** Failed attempts (errors, or workers that died) after which the job is dead-lettered. */
  maxFailures: number
  /** Wait before the first retry; doubled after each further failure, at most an hour (or this). */
  backoffSeconds: number
}

/** How a failed attempt left its job. */
export type FailedAs = 'failed' | 'dead'

/**
 * Consolidation jobs: a queue that several workers on one database share. A worker's lease is the
 * job's `heartbeat_at`; every write of a worker names itself and succeeds only while it holds the
 * job, so a worker that lost its job (taken over after its lease ran out) changes nothing more.
 */
export interface JobStore {
  /** Adds a pending job. */
  enqueue(job: NewJob): Promise<ConsolidationJob>
  /**
   * Adds scheduled jobs, skipping any whose (tenant, type, slot) exists: however many schedulers
   * call this for one slot, each job is added once. Returns the jobs added. Any number of jobs:
   * they are written in statements small enough for PostgreSQL's 65,535 parameters.
   */
  enqueueScheduled(jobs: readonly NewJob[]): Promise<ConsolidationJob[]>
  /**
   * Takes, as `workerId`, the oldest job that is pending, failed and due for its retry, or running
   * with a worker that has not reported for `timeoutSeconds` (it died: a failure, noted in
   * `error_message`). Sets it `running`, attempts + 1, `started_at` kept from the first attempt.
   * A dead worker's job that has reached `maxFailures` is dead-lettered instead. Skips rows another
   * worker is claiming (`FOR UPDATE SKIP LOCKED`), so no job is taken twice. `job` limits it to one.
   */
  claim(
    workerId: string,
    options: { timeoutSeconds: number; maxFailures: number; job?: JobKey | undefined },
  ): Promise<ConsolidationJob | null>
  /**
   * Adds a committed batch's counts to the job and renews the lease; false (nothing added) if
   * `workerId` no longer holds it. Called in the batch's own transaction, so the job's counts and
   * the batch's work commit together, or neither does.
   */
  addProgress(job: JobKey, workerId: string, delta: JobDelta): Promise<boolean>
  /** Renews the lease; false if `workerId` no longer holds the job. */
  heartbeat(job: JobKey, workerId: string): Promise<boolean>
  /** Ends the job `completed` with `metadata`; false if `workerId` no longer holds it. */
  complete(job: JobKey, workerId: string, metadata: Record<string, unknown>): Promise<boolean>
  /**
   * Records a failed attempt with `error`: `failed`, to be retried after the policy's backoff, or
   * `dead` once it has failed `maxFailures` times. Null if `workerId` no longer holds the job.
   */
  fail(job: JobKey, workerId: string, error: string, policy: RetryPolicy): Promise<FailedAs | null>
  /** Puts a job `workerId` holds back to `pending` (a worker stopping), keeping its progress. */
  release(job: JobKey, workerId: string): Promise<boolean>
  get(tenantId: string, jobId: string): Promise<ConsolidationJob | null>
  /** Jobs of every tenant by status, and how many a worker could take now (the queue's depth). */
  queueCounts(): Promise<{ byStatus: Partial<Record<JobStatus, number>>; due: number }>
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
  /** Tokens saved by every job of every tenant, as measured. */
  totalTokensSaved(): Promise<number>
}

/** Rows a tenant has, by kind. */
export interface TenantHoldings {
  handoffs: number
  decisions: number
  jobs: number
  stats: number
  api_keys: number
}

/** Tenants and their API keys (hashes only). */
export interface TenantStore {
  /** Creates a tenant; an existing id is an error (`INVALID_INPUT`). */
  create(tenant: Tenant): Promise<void>
  get(tenantId: string): Promise<Tenant | null>
  list(): Promise<Tenant[]>
  /** Up to `limit` tenants after `afterId` in id order: how work over every tenant pages. */
  page(request: { afterId: string | null; limit: number }): Promise<Tenant[]>
  addApiKey(key: ApiKey): Promise<void>
  /** The live (not revoked) key with this hash, or null. */
  findApiKeyByHash(keyHash: string): Promise<ApiKey | null>
  listApiKeys(tenantId: string): Promise<ApiKey[]>
  /** Revokes a key at `at`; false if the tenant has no such live key. */
  revokeApiKey(tenantId: string, keyId: string, at: string): Promise<boolean>
  /** What a tenant holds, table by table (what deleting it would remove). */
  holdings(tenantId: string): Promise<TenantHoldings>
  /** Deletes a tenant and every row it has (keys, handoffs, decisions, jobs, stats); false if none. */
  delete(tenantId: string): Promise<boolean>
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
