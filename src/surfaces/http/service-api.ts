/**
 * What the HTTP surface asks of the consolidation service, every call scoped to one tenant. The
 * field names are the seed's (snake_case, as its tables and JSON bodies spell them), so a route
 * passes values through without renaming them.
 */

/** How far a handoff has been compressed (seed 003). */
export type CompressionLevel = 'full' | 'summary' | 'quick_ref' | 'integrated'

/** The job types a run accepts; `all` runs every one in the seed's order. */
export type JobTypeRequest =
  | 'all'
  | 'identity_consolidation'
  | 'handoff_compression'
  | 'decision_archival'
  | 'chunk_reorganization'

/** A handoff as the client sends it; the service fills in ids, dates and levels. */
export interface HandoffInput {
  session_id: string
  with_whom?: string | null | undefined
  experienced?: string | null | undefined
  noticed?: string | null | undefined
  learned?: string | null | undefined
  story?: string | null | undefined
  becoming?: string | null | undefined
  remember?: string | null | undefined
  significance?: number | undefined
  tags?: string[] | undefined
  /** When the session happened (default: now), so older sessions can be imported. */
  created_at?: string | undefined
  parent_handoff_id?: string | null | undefined
}

/** A stored handoff: the original fields plus its compression levels. */
export interface Handoff {
  handoff_id: string
  tenant_id: string
  session_id: string
  with_whom: string | null
  experienced: string | null
  noticed: string | null
  learned: string | null
  story: string | null
  becoming: string | null
  remember: string | null
  significance: number
  tags: string[]
  created_at: string
  compression_level: CompressionLevel
  summary: string | null
  quick_ref: string | null
  integrated_into: string | null
  consolidated_at: string | null
  parent_handoff_id: string | null
}

/** A decision as the client sends it. */
export interface DecisionInput {
  decision: string
  rationale?: string | null | undefined
  scope?: string | undefined
  created_at?: string | undefined
}

/** A stored decision; principles are decisions with scope `global`. */
export interface Decision {
  decision_id: string
  tenant_id: string
  decision: string
  rationale: string | null
  status: 'active' | 'superseded'
  scope: string
  sources: string[]
  created_at: string
  updated_at: string | null
}

/** What one job of a run did (the seed's `results[]` item). */
export interface JobResult {
  job_type: string
  items_processed: number
  items_affected: number
  tokens_saved: number
  details: Record<string, unknown>
}

/** A consolidation job row (the seed's `jobs[]` item). */
export interface Job {
  job_id: string
  job_type: string
  status: 'pending' | 'running' | 'completed' | 'failed'
  started_at: string | null
  completed_at: string | null
  items_processed: number
  items_affected: number
  error_message: string | null
  metadata: Record<string, unknown>
}

/** One row of consolidation_stats (the seed's `stats[]` item). */
export interface Stat {
  stat_date: string
  compression_type: string
  before_count: number
  before_tokens: number
  after_count: number
  after_tokens: number
  tokens_saved: number
  percentage_saved: number
}

/** A page of a list: the items and the cursor of the next page (null on the last). */
export interface Page<Item> {
  items: Item[]
  next_cursor: string | null
}

/** How to read one page: at most `limit` items after `cursor`. */
export interface PageRequest {
  limit: number
  cursor?: string | undefined
}

/** The use cases the HTTP API serves. Every method sees only `tenantId`'s rows. */
export interface ServiceApi {
  /** The tenant an API key belongs to, or null for an unknown or revoked key. */
  tenantForKey(apiKey: string): Promise<string | null>
  /** True when the tenant exists (used when auth is off and the body names the tenant). */
  tenantExists(tenantId: string): Promise<boolean>
  createHandoff(tenantId: string, input: HandoffInput): Promise<Handoff>
  listHandoffs(tenantId: string, page: PageRequest): Promise<Page<Handoff>>
  getHandoff(tenantId: string, handoffId: string): Promise<Handoff | null>
  createDecision(tenantId: string, input: DecisionInput): Promise<Decision>
  listDecisions(
    tenantId: string,
    page: PageRequest & { status?: Decision['status'] | undefined },
  ): Promise<Page<Decision>>
  getDecision(tenantId: string, decisionId: string): Promise<Decision | null>
  listPrinciples(tenantId: string, page: PageRequest): Promise<Page<Decision>>
  /** Runs the jobs now and returns what each did. */
  runConsolidation(
    tenantId: string,
    jobType: JobTypeRequest,
    asOf: Date | undefined,
  ): Promise<JobResult[]>
  listStats(tenantId: string): Promise<Stat[]>
  listJobs(
    tenantId: string,
    filter: { status?: Job['status'] | undefined; limit: number },
  ): Promise<Job[]>
  /** Throws when the database does not answer. */
  checkHealth(): Promise<void>
}
