/**
 * Tenants, API keys (hashed) and seed 003's `session_handoffs` (its migration 018)
 * (docs/design/origins.md).
 */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Creates the tables and the default tenant. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE tenants (
      tenant_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`,
    `INSERT INTO tenants (tenant_id, name) VALUES ('default', 'Default tenant')`,
    `CREATE TABLE api_keys (
      key_id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL REFERENCES tenants (tenant_id) ON DELETE CASCADE,
      key_hash TEXT NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
      label TEXT NOT NULL DEFAULT '',
      created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      revoked_at TIMESTAMPTZ
    )`,
    `CREATE INDEX idx_api_keys_tenant ON api_keys (tenant_id)`,
    `CREATE TABLE session_handoffs (
      handoff_id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL DEFAULT 'default' REFERENCES tenants (tenant_id),
      session_id TEXT,
      with_whom TEXT,
      experienced TEXT,
      noticed TEXT,
      learned TEXT,
      story TEXT,
      becoming TEXT,
      remember TEXT,
      significance NUMERIC(3, 2) NOT NULL DEFAULT 0.5 CHECK (significance >= 0 AND significance <= 1),
      tags TEXT[] NOT NULL DEFAULT '{}',
      created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX idx_handoffs_tenant_created ON session_handoffs (tenant_id, created_at DESC)`,
    `CREATE INDEX idx_handoffs_tenant_with_whom ON session_handoffs (tenant_id, with_whom, created_at DESC)`,
    `CREATE INDEX idx_handoffs_session ON session_handoffs (session_id)`,
  ])
}

/** Drops what `up` created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DROP TABLE session_handoffs`,
    `DROP TABLE api_keys`,
    `DROP TABLE tenants`,
  ])
}
