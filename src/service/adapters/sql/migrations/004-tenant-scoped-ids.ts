/**
 * Ids belong to their tenant: the keys of handoffs, decisions, jobs and API keys become
 * (tenant_id, id), so two tenants may use one id (the same LoCoMo file imported into both, session
 * ids pushed from two projects) and neither learns that the other has it. A handoff's parent must
 * be a handoff of its own tenant; a parent that is deleted leaves its children without one. Every
 * row of a tenant goes with the tenant (`somnus tenant delete`).
 *
 * Existing databases are upgraded in place. The only rows the new keys cannot hold are links from
 * a handoff to another tenant's parent, which the old global key let the CLI import make: those
 * links are cleared (the handoffs themselves are kept).
 */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Re-keys the tables by tenant. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE session_handoffs DROP CONSTRAINT session_handoffs_parent_handoff_id_fkey`,
    `UPDATE session_handoffs AS child SET parent_handoff_id = NULL
      WHERE parent_handoff_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM session_handoffs AS parent
        WHERE parent.tenant_id = child.tenant_id AND parent.handoff_id = child.parent_handoff_id)`,
    `ALTER TABLE session_handoffs DROP CONSTRAINT session_handoffs_pkey`,
    `ALTER TABLE session_handoffs ADD CONSTRAINT session_handoffs_pkey PRIMARY KEY (tenant_id, handoff_id)`,
    `DROP INDEX idx_handoffs_tenant_id`,
    `ALTER TABLE session_handoffs ADD CONSTRAINT session_handoffs_parent_fkey
      FOREIGN KEY (tenant_id, parent_handoff_id) REFERENCES session_handoffs (tenant_id, handoff_id)
      ON DELETE SET NULL (parent_handoff_id)`,
    `CREATE INDEX idx_handoffs_parent ON session_handoffs (tenant_id, parent_handoff_id)
      WHERE parent_handoff_id IS NOT NULL`,
    `ALTER TABLE session_handoffs DROP CONSTRAINT session_handoffs_tenant_id_fkey`,
    `ALTER TABLE session_handoffs ADD CONSTRAINT session_handoffs_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (tenant_id) ON DELETE CASCADE`,
    `ALTER TABLE decisions DROP CONSTRAINT decisions_pkey`,
    `ALTER TABLE decisions ADD CONSTRAINT decisions_pkey PRIMARY KEY (tenant_id, decision_id)`,
    `ALTER TABLE decisions DROP CONSTRAINT decisions_tenant_id_fkey`,
    `ALTER TABLE decisions ADD CONSTRAINT decisions_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (tenant_id) ON DELETE CASCADE`,
    `ALTER TABLE consolidation_jobs DROP CONSTRAINT consolidation_jobs_pkey`,
    `ALTER TABLE consolidation_jobs ADD CONSTRAINT consolidation_jobs_pkey PRIMARY KEY (tenant_id, job_id)`,
    `ALTER TABLE consolidation_jobs DROP CONSTRAINT consolidation_jobs_tenant_id_fkey`,
    `ALTER TABLE consolidation_jobs ADD CONSTRAINT consolidation_jobs_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (tenant_id) ON DELETE CASCADE`,
    `ALTER TABLE consolidation_stats DROP CONSTRAINT consolidation_stats_tenant_id_fkey`,
    `ALTER TABLE consolidation_stats ADD CONSTRAINT consolidation_stats_tenant_id_fkey
      FOREIGN KEY (tenant_id) REFERENCES tenants (tenant_id) ON DELETE CASCADE`,
    `ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey`,
    `ALTER TABLE api_keys ADD CONSTRAINT api_keys_pkey PRIMARY KEY (tenant_id, key_id)`,
    `DROP INDEX idx_api_keys_tenant`,
  ])
}

/** Puts the global keys back (fails if two tenants now share an id, as it must). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX idx_api_keys_tenant ON api_keys (tenant_id)`,
    `ALTER TABLE api_keys DROP CONSTRAINT api_keys_pkey`,
    `ALTER TABLE api_keys ADD CONSTRAINT api_keys_pkey PRIMARY KEY (key_id)`,
    `ALTER TABLE consolidation_jobs DROP CONSTRAINT consolidation_jobs_pkey`,
    `ALTER TABLE consolidation_jobs ADD CONSTRAINT consolidation_jobs_pkey PRIMARY KEY (job_id)`,
    `ALTER TABLE decisions DROP CONSTRAINT decisions_pkey`,
    `ALTER TABLE decisions ADD CONSTRAINT decisions_pkey PRIMARY KEY (decision_id)`,
    `DROP INDEX idx_handoffs_parent`,
    `ALTER TABLE session_handoffs DROP CONSTRAINT session_handoffs_parent_fkey`,
    `ALTER TABLE session_handoffs DROP CONSTRAINT session_handoffs_pkey`,
    `ALTER TABLE session_handoffs ADD CONSTRAINT session_handoffs_pkey PRIMARY KEY (handoff_id)`,
    `CREATE INDEX idx_handoffs_tenant_id ON session_handoffs (tenant_id, handoff_id)`,
    `ALTER TABLE session_handoffs ADD CONSTRAINT session_handoffs_parent_handoff_id_fkey
      FOREIGN KEY (parent_handoff_id) REFERENCES session_handoffs (handoff_id)`,
  ])
}
