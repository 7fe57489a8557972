/**
 * What the HTTP surface asks of the consolidation service, every call scoped to one tenant. The
 * shapes are service/core's (the seed's snake_case names), so a route passes values through.
 */

import type { DatabaseHealth, Page, PageRequest } from '../../service/index.ts'
import type {
  ConsolidationJob,
  ConsolidationJobsResponse,
  ConsolidationQueuedResponse,
  ConsolidationRunResponse,
  ConsolidationStatsResponse,
  Decision,
  DecisionInput,
  DecisionStatus,
  Handoff,
  HandoffInput,
  HandoffSearchHit,
  HandoffSearchQuery,
  JobStatus,
  RunJobType,
} from '../../service/service-values.ts'

/** The use cases the HTTP API serves. Every method sees only `tenantId`'s rows. */
export interface ServiceApi {
  /** The tenant an API key belongs to, or null for an unknown or revoked key. */
  tenantForKey(apiKey: string): Promise<string | null>
  /** True when the tenant exists (asked when auth is off and the request names the tenant). */
  tenantExists(tenantId: string): Promise<boolean>
  createHandoff(tenantId: string, input: HandoffInput): Promise<Handoff>
  listHandoffs(tenantId: string, page: PageRequest): Promise<Page<Handoff>>
  getHandoff(tenantId: string, handoffId: string): Promise<Handoff | null>
  /** Deletes a handoff (and its id from what cites it); false if the tenant has none by that id. */
  deleteHandoff(tenantId: string, handoffId: string): Promise<boolean>
  /** The units of the tenant's handoffs that best match the query, best first. */
  searchHandoffs(tenantId: string, query: HandoffSearchQuery): Promise<HandoffSearchHit[]>
  createDecision(tenantId: string, input: DecisionInput): Promise<Decision>
  listDecisions(
    tenantId: string,
    page: PageRequest & { status?: DecisionStatus | undefined },
  ): Promise<Page<Decision>>
  getDecision(tenantId: string, decisionId: string): Promise<Decision | null>
  /** Deletes a decision or principle; false if the tenant has none by that id. */
  deleteDecision(tenantId: string, decisionId: string): Promise<boolean>
  /** Principles (decisions of kind principle, scope global), newest first. */
  listPrinciples(tenantId: string, page: PageRequest): Promise<Page<Decision>>
  /** Queues the jobs of a run for a worker; answers at once with them (pending). */
  enqueueConsolidation(
    tenantId: string,
    jobType: RunJobType,
    asOf: Date | undefined,
  ): Promise<ConsolidationQueuedResponse>
  /** Waits for a queued run's jobs to end and answers, as the seed does, with what each did. */
  awaitConsolidation(
    queued: ConsolidationQueuedResponse,
    signal: AbortSignal | undefined,
  ): Promise<ConsolidationRunResponse>
  /** One job of the tenant, or null. */
  getJob(tenantId: string, jobId: string): Promise<ConsolidationJob | null>
  /** The seed's stats answer. */
  consolidationStats(tenantId: string): Promise<ConsolidationStatsResponse>
  /** The seed's jobs answer. */
  consolidationJobs(
    tenantId: string,
    query: { status?: JobStatus | undefined; limit: number },
  ): Promise<ConsolidationJobsResponse>
  /**
   * How the database was found answering (a probe now, or a statement moments ago while the probe
   * waits behind other work); throws when it does not answer.
   */
  checkHealth(): Promise<DatabaseHealth>
  /** Figures for `/metrics`, over every tenant: jobs by status, the queue's depth, tokens saved. */
  metricsSnapshot(): Promise<{
    jobs: Partial<Record<JobStatus, number>>
    queueDepth: number
    tokensSaved: number
  }>
}
