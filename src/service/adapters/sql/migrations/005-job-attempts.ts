/**
 * Job rows that tell the truth across attempts: `tokens_saved` as a column, added to with every
 * batch like `items_processed` and `items_affected` (so a job taken over from a dead worker keeps
 * what that worker did); `failures` (attempts that failed or whose worker died); `run_after` (when
 * a failed job is retried, after a backoff); and the status `dead` for a job that failed as often
 * as the retry policy allows (dead-lettered: no worker takes it again). A job that failed before
 * this migration was final then and stays final: it becomes `dead`, not retried months later.
 */
import type { Kysely } from 'kysely'
import { runStatements } from './run-statements.ts'

/** Adds the columns and the status. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `ALTER TABLE consolidation_jobs
      ADD COLUMN tokens_saved BIGINT NOT NULL DEFAULT 0,
      ADD COLUMN failures INTEGER NOT NULL DEFAULT 0,
      ADD COLUMN run_after TIMESTAMPTZ`,
    `UPDATE consolidation_jobs SET tokens_saved = (metadata->>'tokens_saved')::bigint
      WHERE jsonb_typeof(metadata->'tokens_saved') = 'number'`,
    `UPDATE consolidation_jobs SET failures = 1, status = 'dead' WHERE status = 'failed'`,
    `ALTER TABLE consolidation_jobs DROP CONSTRAINT consolidation_jobs_status_check`,
    `ALTER TABLE consolidation_jobs ADD CONSTRAINT consolidation_jobs_status_check
      CHECK (status IN ('pending', 'running', 'completed', 'failed', 'dead'))`,
  ])
}

/** Drops them (dead jobs become failed). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `UPDATE consolidation_jobs SET status = 'failed' WHERE status = 'dead'`,
    `ALTER TABLE consolidation_jobs DROP CONSTRAINT consolidation_jobs_status_check`,
    `ALTER TABLE consolidation_jobs ADD CONSTRAINT consolidation_jobs_status_check
      CHECK (status IN ('pending', 'running', 'completed', 'failed'))`,
    `ALTER TABLE consolidation_jobs
      DROP COLUMN tokens_saved, DROP COLUMN failures, DROP COLUMN run_after`,
  ])
}
