/** `decisions`: plain decisions and the principles identity consolidation makes (scope global). */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Creates the table. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE decisions (
      decision_id TEXT PRIMARY KEY,
      tenant_id TEXT NOT NULL DEFAULT 'default' REFERENCES tenants (tenant_id),
      kind TEXT NOT NULL DEFAULT 'decision' CHECK (kind IN ('decision', 'principle')),
      decision TEXT NOT NULL,
      rationale TEXT,
      status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded')),
      scope TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('global', 'project', 'session')),
      sources TEXT[] NOT NULL DEFAULT '{}',
      created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      superseded_at TIMESTAMPTZ
    )`,
    `CREATE INDEX idx_decisions_tenant_status ON decisions (tenant_id, status, created_at DESC)`,
    `CREATE INDEX idx_decisions_tenant_kind ON decisions (tenant_id, kind, status)`,
  ])
}

/** Drops the table. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`DROP TABLE decisions`])
}
