/** The service's tables as Kysely sees them (the migrations in `migrations/` create them). */
import type { ColumnType, Generated } from 'kysely'

/** A timestamptz: read as a Date, written as a Date or an ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>
/** A bigint or numeric: `pg` reads it as a string, PGlite as a number. */
type Numeric = ColumnType<string | number, number, number>
/** A jsonb column: read as parsed JSON, written as JSON text. */
type Json<T> = ColumnType<T, string, string>

/** `tenants`. */
export interface TenantsTable {
  tenant_id: string
  name: string
  created_at: Timestamp
}

/** `api_keys`: SHA-256 hashes only. */
export interface ApiKeysTable {
  key_id: string
  tenant_id: string
  key_hash: string
  label: string
  created_at: Timestamp
  revoked_at: Timestamp | null
}

/**
 * `session_handoffs` (seed 003, migrations 018 and 019, plus sources, turns and measured tokens,
 * docs/design/origins.md).
 */
export interface SessionHandoffsTable {
  handoff_id: string
  tenant_id: string
  session_id: string | null
  with_whom: string | null
  experienced: string | null
  noticed: string | null
  learned: string | null
  story: string | null
  becoming: string | null
  remember: string | null
  significance: Numeric
  tags: string[]
  created_at: Timestamp
  sources: string[]
  turns: Json<{ id: string; speaker?: string; text: string }[] | null> | null
  compression_level: string
  summary: string | null
  summary_sources: string[]
  quick_ref: string | null
  quick_ref_sources: string[]
  integrated_into: string | null
  consolidated_at: Timestamp | null
  parent_handoff_id: string | null
  full_tokens: number
  summary_tokens: number | null
  quick_ref_tokens: number | null
}

/** `consolidation_jobs`. */
export interface ConsolidationJobsTable {
  job_id: string
  tenant_id: string
  job_type: string
  status: string
  scheduled_for: Timestamp | null
  as_of: Timestamp | null
  started_at: Timestamp | null
  completed_at: Timestamp | null
  items_processed: Generated<number>
  items_affected: Generated<number>
  error_message: string | null
  metadata: Json<Record<string, unknown>>
  created_at: Timestamp
  worker_id: string | null
  heartbeat_at: Timestamp | null
  attempts: Generated<number>
  tokens_saved: ColumnType<string | number, number | undefined, number>
  failures: Generated<number>
  run_after: Timestamp | null
}

/** `consolidation_stats`: unique per (tenant_id, stat_date, compression_type). */
export interface ConsolidationStatsTable {
  stat_id: string
  tenant_id: string
  stat_date: ColumnType<Date | string, string, string>
  compression_type: string
  before_count: Numeric
  before_tokens: Numeric
  after_count: Numeric
  after_tokens: Numeric
  tokens_saved: Numeric
  percentage_saved: Numeric
  created_at: Generated<Timestamp>
}

/** `decisions`: plain decisions and principles. */
export interface DecisionsTable {
  decision_id: string
  tenant_id: string
  kind: string
  decision: string
  rationale: string | null
  status: string
  scope: string
  sources: string[]
  created_at: Timestamp
  updated_at: Timestamp
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
