/**
 * The service's tables as Kysely sees them (the migrations in `migrations/` create them). Columns
 * that hold one of a closed set of values carry that set as a literal union, so the stores read
 * them without a cast; columns the database fills when an insert leaves them out are `Generated`
 * (or a `Defaulted` timestamp). `SERVICE_COLUMNS` below lists every column with its nullability:
 * the compiler holds it equal to these interfaces, and database-schema.test.ts holds it equal to
 * the schema the migrations make on PGlite and PostgreSQL.
 */
import type { ColumnType, Generated, JSONColumnType, SelectType } from 'kysely'
import type { ConsolidationJob, JobStatus, JobType } from '../../core/consolidation-job.ts'
import type { DecisionKind, DecisionScope, DecisionStatus } from '../../core/decision.ts'
import type { CompressionLevel, HandoffTurn } from '../../core/handoff.ts'

/** A timestamptz: read as a Date, written as a Date or an ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>
/** A timestamptz with a default (`now()`): an insert may leave it out. */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** A bigint or numeric with a default (`pg` reads it as a string, PGlite as a number). */
type DefaultedNumeric = ColumnType<string | number, number | undefined, number>

/** `tenants`. */
export interface TenantsTable {
  tenant_id: string
  name: string
  created_at: DefaultedTimestamp
}

/** `api_keys`: SHA-256 hashes only. */
export interface ApiKeysTable {
  key_id: string
  tenant_id: string
  key_hash: string
  label: Generated<string>
  created_at: DefaultedTimestamp
  revoked_at: Timestamp | null
}

/**
 * `session_handoffs` (seed 003, migrations 018 and 019, plus sources, turns and measured tokens,
 * docs/design/origins.md).
 */
export interface SessionHandoffsTable {
  handoff_id: string
  tenant_id: Generated<string>
  session_id: string | null
  with_whom: string | null
  experienced: string | null
  noticed: string | null
  learned: string | null
  story: string | null
  becoming: string | null
  remember: string | null
  significance: DefaultedNumeric
  tags: Generated<string[]>
  created_at: DefaultedTimestamp
  sources: Generated<string[]>
  /** jsonb: read parsed, written as JSON text. */
  turns: JSONColumnType<HandoffTurn[] | null, string | null, string | null>
  compression_level: Generated<CompressionLevel>
  summary: string | null
  summary_sources: Generated<string[]>
  quick_ref: string | null
  quick_ref_sources: Generated<string[]>
  integrated_into: string | null
  consolidated_at: Timestamp | null
  parent_handoff_id: string | null
  full_tokens: Generated<number>
  summary_tokens: number | null
  quick_ref_tokens: number | null
  /**
   * Migration 006's tsvector, filled in the background by `indexPending` and read only inside
   * SQL: never inserted from here, and a read selects the other columns by name.
   */
  search_vector: ColumnType<string | null, never, null>
}

/** `consolidation_jobs`. */
export interface ConsolidationJobsTable {
  job_id: string
  tenant_id: Generated<string>
  job_type: JobType
  status: Generated<JobStatus>
  scheduled_for: Timestamp | null
  as_of: Timestamp | null
  started_at: Timestamp | null
  completed_at: Timestamp | null
  items_processed: Generated<number>
  items_affected: Generated<number>
  error_message: string | null
  /** jsonb: read parsed, written as JSON text. */
  metadata: JSONColumnType<ConsolidationJob['metadata'], string | undefined, string>
  created_at: DefaultedTimestamp
  worker_id: string | null
  heartbeat_at: Timestamp | null
  attempts: Generated<number>
  tokens_saved: DefaultedNumeric
  failures: Generated<number>
  run_after: Timestamp | null
}

/** `consolidation_stats`: unique per (tenant_id, stat_date, compression_type). */
export interface ConsolidationStatsTable {
  stat_id: string
  tenant_id: Generated<string>
  stat_date: ColumnType<Date | string, string, string>
  compression_type: JobType
  before_count: DefaultedNumeric
  before_tokens: DefaultedNumeric
  after_count: DefaultedNumeric
  after_tokens: DefaultedNumeric
  tokens_saved: DefaultedNumeric
  percentage_saved: DefaultedNumeric
  created_at: DefaultedTimestamp
}

/** `decisions`: plain decisions and principles. */
export interface DecisionsTable {
  decision_id: string
  tenant_id: Generated<string>
  kind: Generated<DecisionKind>
  decision: string
  rationale: string | null
  status: Generated<DecisionStatus>
  scope: Generated<DecisionScope>
  sources: Generated<string[]>
  created_at: DefaultedTimestamp
  updated_at: DefaultedTimestamp
  superseded_at: Timestamp | null
}

/** Every table. */
export interface ServiceDatabase {
  tenants: TenantsTable
  api_keys: ApiKeysTable
  session_handoffs: SessionHandoffsTable
  consolidation_jobs: ConsolidationJobsTable
  consolidation_stats: ConsolidationStatsTable
  decisions: DecisionsTable
}

/** Whether a column may hold NULL, as the compiler and the database both say it. */
export type Nullability = 'nullable' | 'not null'

/** Every column of `Table` with the nullability its select type says. */
type ColumnsOf<Table> = {
  [Column in keyof Table]-?: null extends SelectType<Table[Column]> ? 'nullable' : 'not null'
}

/**
 * Every table and column of `ServiceDatabase` with its nullability, as a value a test can hold
 * against the migrated schema. `satisfies` keeps it equal to the interfaces both ways: a column
 * missing here, one here that the interface lacks, or a nullability that differs does not compile.
 */
export const SERVICE_COLUMNS = {
  tenants: { tenant_id: 'not null', name: 'not null', created_at: 'not null' },
  api_keys: {
    key_id: 'not null',
    tenant_id: 'not null',
    key_hash: 'not null',
    label: 'not null',
    created_at: 'not null',
    revoked_at: 'nullable',
  },
  session_handoffs: {
    handoff_id: 'not null',
    tenant_id: 'not null',
    session_id: 'nullable',
    with_whom: 'nullable',
    experienced: 'nullable',
    noticed: 'nullable',
    learned: 'nullable',
    story: 'nullable',
    becoming: 'nullable',
    remember: 'nullable',
    significance: 'not null',
    tags: 'not null',
    created_at: 'not null',
    sources: 'not null',
    turns: 'nullable',
    compression_level: 'not null',
    summary: 'nullable',
    summary_sources: 'not null',
    quick_ref: 'nullable',
    quick_ref_sources: 'not null',
    integrated_into: 'nullable',
    consolidated_at: 'nullable',
    parent_handoff_id: 'nullable',
    full_tokens: 'not null',
    summary_tokens: 'nullable',
    quick_ref_tokens: 'nullable',
    search_vector: 'nullable',
  },
  consolidation_jobs: {
    job_id: 'not null',
    tenant_id: 'not null',
    job_type: 'not null',
    status: 'not null',
    scheduled_for: 'nullable',
    as_of: 'nullable',
    started_at: 'nullable',
    completed_at: 'nullable',
    items_processed: 'not null',
    items_affected: 'not null',
    error_message: 'nullable',
    metadata: 'not null',
    created_at: 'not null',
    worker_id: 'nullable',
    heartbeat_at: 'nullable',
    attempts: 'not null',
    tokens_saved: 'not null',
    failures: 'not null',
    run_after: 'nullable',
  },
  consolidation_stats: {
    stat_id: 'not null',
    tenant_id: 'not null',
    stat_date: 'not null',
    compression_type: 'not null',
    before_count: 'not null',
    before_tokens: 'not null',
    after_count: 'not null',
    after_tokens: 'not null',
    tokens_saved: 'not null',
    percentage_saved: 'not null',
    created_at: 'not null',
  },
  decisions: {
    decision_id: 'not null',
    tenant_id: 'not null',
    kind: 'not null',
    decision: 'not null',
    rationale: 'nullable',
    status: 'not null',
    scope: 'not null',
    sources: 'not null',
    created_at: 'not null',
    updated_at: 'not null',
    superseded_at: 'nullable',
  },
} as const satisfies { [Table in keyof ServiceDatabase]: ColumnsOf<ServiceDatabase[Table]> }
