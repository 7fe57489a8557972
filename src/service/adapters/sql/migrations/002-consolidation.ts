/**
 * Seed 003's migration 019: compression levels on handoffs, `consolidation_jobs` and
 * `consolidation_stats`; plus what Somnus measures and cites (sources, turns, tokens per level),
 * the worker lease (worker_id, heartbeat_at, attempts) and the scheduler's slot (scheduled_for).
 */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Adds the columns and tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE session_handoffs
      ADD COLUMN compression_level TEXT NOT NULL DEFAULT 'full'
        CHECK (compression_level IN ('full', 'summary', 'quick_ref', 'integrated')),
      ADD COLUMN summary TEXT,
      ADD COLUMN quick_ref TEXT,
      ADD COLUMN integrated_into TEXT,
      ADD COLUMN consolidated_at TIMESTAMPTZ,
      ADD COLUMN parent_handoff_id TEXT REFERENCES session_handoffs (handoff_id),
      ADD COLUMN sources TEXT[] NOT NULL DEFAULT '{}',
      ADD COLUMN turns JSONB,
      ADD COLUMN summary_sources TEXT[] NOT NULL DEFAULT '{}',
      ADD COLUMN quick_ref_sources TEXT[] NOT NULL DEFAULT '{}',
      ADD COLUMN full_tokens INTEGER NOT NULL DEFAULT 0,
      ADD COLUMN summary_tokens INTEGER,
      ADD COLUMN quick_ref_tokens INTEGER`,
    `CREATE INDEX idx_handoffs_compression
      ON session_handoffs (tenant_id, compression_level, created_at DESC)`,
    `CREATE INDEX idx_handoffs_tenant_id ON session_handoffs (tenant_id, handoff_id)`,
    `CREATE TABLE consolidation_jobs (
      job_id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL DEFAULT 'default' REFERENCES tenants (tenant_id),
      job_type TEXT NOT NULL
        CHECK (job_type IN ('identity_consolidation', 'handoff_compression', 'decision_archival')),
      status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'running', 'completed', 'failed')),
      scheduled_for TIMESTAMPTZ,
      as_of TIMESTAMPTZ,
      started_at TIMESTAMPTZ,
      completed_at TIMESTAMPTZ,
      items_processed INTEGER NOT NULL DEFAULT 0,
      items_affected INTEGER NOT NULL DEFAULT 0,
      error_message TEXT,
      metadata JSONB NOT NULL DEFAULT '{}',
      created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      worker_id TEXT,
      heartbeat_at TIMESTAMPTZ,
      attempts INTEGER NOT NULL DEFAULT 0,
      UNIQUE (tenant_id, job_type, scheduled_for)
    )`,
    `CREATE INDEX idx_jobs_tenant_created ON consolidation_jobs (tenant_id, created_at DESC)`,
    `CREATE INDEX idx_jobs_claimable ON consolidation_jobs (status, created_at)`,
    `CREATE TABLE consolidation_stats (
      stat_id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL DEFAULT 'default' REFERENCES tenants (tenant_id),
      stat_date DATE NOT NULL,
      compression_type TEXT NOT NULL,
      before_count INTEGER NOT NULL DEFAULT 0,
      before_tokens BIGINT NOT NULL DEFAULT 0,
      after_count INTEGER NOT NULL DEFAULT 0,
      after_tokens BIGINT NOT NULL DEFAULT 0,
      tokens_saved BIGINT NOT NULL DEFAULT 0,
      percentage_saved NUMERIC(5, 2) NOT NULL DEFAULT 0,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      UNIQUE (tenant_id, stat_date, compression_type)
    )`,
  ])
}

/** Drops what `up` added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DROP TABLE consolidation_stats`,
    `DROP TABLE consolidation_jobs`,
    `ALTER TABLE session_handoffs
      DROP COLUMN compression_level, DROP COLUMN summary, DROP COLUMN quick_ref,
      DROP COLUMN integrated_into, DROP COLUMN consolidated_at, DROP COLUMN parent_handoff_id,
      DROP COLUMN sources, DROP COLUMN turns, DROP COLUMN summary_sources,
      DROP COLUMN quick_ref_sources, DROP COLUMN full_tokens, DROP COLUMN summary_tokens,
      DROP COLUMN quick_ref_tokens`,
  ])
}
