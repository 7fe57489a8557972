/**
 * Full-text search over handoffs (`GET /api/v1/search`, `somnus handoffs search`): a tsvector the
 * database computes in the INSERT or UPDATE that writes the row (a generated column), so the index
 * can never lag or miss a write (create, compression, delete, a tenant's delete), and a GIN index
 * over it. Each level's words carry a weight, so a search can keep to one level: the original
 * text fields and turns `D`, the summary `B`, the quick reference `A`. Turns add their speaker's
 * name beside their text (`jsonb_to_tsvector` over every string of the turns).
 *
 * Adding a stored generated column rewrites the table once, under a lock: on a large existing
 * table, run the upgrade at a quiet time. The GIN index's pending list (fast update) is made
 * larger than PostgreSQL's default, so a burst of ingest appends to it and autovacuum merges it,
 * instead of an inserting request paying for the merge.
 */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Adds the column and the index. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE session_handoffs ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english'::regconfig,
        coalesce(experienced, '') || ' ' || coalesce(noticed, '') || ' ' || coalesce(learned, '')
        || ' ' || coalesce(story, '') || ' ' || coalesce(becoming, '') || ' ' || coalesce(remember, '')), 'D')
      || setweight(jsonb_to_tsvector('english'::regconfig, coalesce(turns, '[]'::jsonb), '["string"]'), 'D')
      || setweight(to_tsvector('english'::regconfig, coalesce(summary, '')), 'B')
      || setweight(to_tsvector('english'::regconfig, coalesce(quick_ref, '')), 'A')
    ) STORED`,
    `CREATE INDEX idx_handoffs_search ON session_handoffs USING gin (search_vector)
      WITH (gin_pending_list_limit = 16384)`,
  ])
}

/** Drops them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DROP INDEX idx_handoffs_search`,
    `ALTER TABLE session_handoffs DROP COLUMN search_vector`,
  ])
}
