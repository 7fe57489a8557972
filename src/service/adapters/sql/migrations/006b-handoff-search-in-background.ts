/**
 * The search vector of migration 006 is computed in the background, not in the INSERT: measured
 * (bench/service-search-ingest.ts), the generated column and its GIN entries halved the
 * database's insert rate. The column keeps every vector already computed and becomes a plain one
 * that `HandoffStore.indexPending` fills in batches (`somnus serve` runs it between writes,
 * `handoffs import` after its commit); a write that changes a handoff's text (compression) sets it
 * back to NULL. Rows not yet indexed are found by a small partial index, and a search reads them
 * too (their vector computed on the fly), so nothing written is ever missing from a search.
 *
 * Named 006b so that it runs right after 006 (already merged) and before any 007.
 */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Turns the generated column into a plain one and indexes the rows still without a vector. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE session_handoffs ALTER COLUMN search_vector DROP EXPRESSION`,
    `CREATE INDEX idx_handoffs_unindexed ON session_handoffs (tenant_id) WHERE search_vector IS NULL`,
  ])
}

/** Drops the partial index (the column stays plain: a generated one cannot be restored in place). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`DROP INDEX idx_handoffs_unindexed`])
}
