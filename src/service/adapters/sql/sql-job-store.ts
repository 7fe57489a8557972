/**
 * JobStore on SQL (`consolidation_jobs`). Claims use `FOR UPDATE SKIP LOCKED`; a worker's lease is
 * its `heartbeat_at`, renewed with every batch and judged by the database's clock, so workers on
 * machines with different clocks agree on who died. Counts are added batch by batch in the batch's
 * own transaction, so the row holds what every attempt did, exactly once.
 */
import { type Insertable, type Kysely, type Selectable, sql, type UpdateObject } from 'kysely'
import type { ConsolidationJob } from '../../core/consolidation-job.ts'
import type { JobKey, JobStore, NewJob } from '../../ports/service-stores.ts'
import type { ConsolidationJobsTable, ServiceDatabase } from './database-schema.ts'
import { iso, isoOrNull, json, num } from './sql-values.ts'

/** Jobs per INSERT: 8 parameters each keeps a statement far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000

/** The longest wait between retries, unless the policy's first wait is longer. */
const MAX_BACKOFF_SECONDS = 3600

function jobFromRow(row: Selectable<ConsolidationJobsTable>): ConsolidationJob {
  return {
    job_id: row.job_id,
    tenant_id: row.tenant_id,
    job_type: row.job_type,
    status: row.status,
    scheduled_for: isoOrNull(row.scheduled_for),
    as_of: isoOrNull(row.as_of),
    started_at: isoOrNull(row.started_at),
    completed_at: isoOrNull(row.completed_at),
    items_processed: row.items_processed,
    items_affected: row.items_affected,
    tokens_saved: num(row.tokens_saved),
    error_message: row.error_message,
    metadata: json<Record<string, unknown>>(row.metadata),
    created_at: iso(row.created_at),
    worker_id: row.worker_id,
    heartbeat_at: isoOrNull(row.heartbeat_at),
    attempts: row.attempts,
    failures: row.failures,
    run_after: isoOrNull(row.run_after),
  }
}

function rowOf(job: NewJob): Insertable<ConsolidationJobsTable> {
  return { ...job, status: 'pending', metadata: JSON.stringify(job.metadata) }
}

/** A JobStore over `db` (the database or a transaction). */
export function sqlJobStore(db: Kysely<ServiceDatabase>): JobStore {
  /** Changes the job `workerId` holds; false when the lease is gone. */
  const updateHeld = async (
    job: JobKey,
    workerId: string,
    set: UpdateObject<ServiceDatabase, 'consolidation_jobs'>,
  ): Promise<Selectable<ConsolidationJobsTable> | null> => {
    const rows = await db
      .updateTable('consolidation_jobs')
      .set(set)
      .where('tenant_id', '=', job.tenant_id)
      .where('job_id', '=', job.job_id)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'running')
      .returningAll()
      .execute()
    return rows[0] ?? null
  }

  return {
    async enqueue(job) {
      const row = await db
        .insertInto('consolidation_jobs')
        .values(rowOf(job))
        .returningAll()
        .executeTakeFirstOrThrow()
      return jobFromRow(row)
    },

    async enqueueScheduled(jobs) {
      const added: ConsolidationJob[] = []
      for (let start = 0; start < jobs.length; start += INSERT_CHUNK) {
        const rows = await db
          .insertInto('consolidation_jobs')
          .values(jobs.slice(start, start + INSERT_CHUNK).map(rowOf))
          .onConflict((conflict) =>
            conflict.columns(['tenant_id', 'job_type', 'scheduled_for']).doNothing(),
          )
          .returningAll()
          .execute()
        for (const row of rows) added.push(jobFromRow(row))
      }
      return added
    },

    async claim(workerId, { timeoutSeconds, maxFailures, job }) {
      const onlyJob =
        job === undefined ? sql`` : sql`AND tenant_id = ${job.tenant_id} AND job_id = ${job.job_id}`
      const stale = sql`status = 'running'
        AND heartbeat_at < now() - make_interval(secs => ${timeoutSeconds})`
      // A dead worker is a failed attempt: at the limit, the job is dead-lettered, not run again.
      await sql`
        UPDATE consolidation_jobs SET
          status = 'dead', failures = failures + 1, completed_at = now(),
          error_message = 'worker ' || worker_id || ' stopped reporting for over '
            || ${timeoutSeconds} || ' s; dead-lettered after ' || (failures + 1) || ' failed attempts',
          worker_id = NULL
        WHERE ${stale} AND failures + 1 >= ${maxFailures} ${onlyJob}`.execute(db)
      const result = await sql<Selectable<ConsolidationJobsTable>>`
        UPDATE consolidation_jobs AS j SET
          status = 'running', worker_id = ${workerId}, heartbeat_at = now(),
          started_at = COALESCE(j.started_at, now()), attempts = j.attempts + 1,
          completed_at = NULL, run_after = NULL,
          failures = j.failures + CASE WHEN j.status = 'running' THEN 1 ELSE 0 END,
          error_message = CASE WHEN j.status = 'running'
            THEN 'worker ' || j.worker_id || ' stopped reporting for over ' || ${timeoutSeconds}
              || ' s; taken over by ' || ${workerId}
            ELSE j.error_message END
        FROM (
          SELECT tenant_id, job_id FROM consolidation_jobs
          WHERE ((status IN ('pending', 'failed') AND (run_after IS NULL OR run_after <= now()))
              OR (${stale}))
            ${onlyJob}
          ORDER BY created_at, job_id
          LIMIT 1
          FOR UPDATE SKIP LOCKED) AS next
        WHERE j.tenant_id = next.tenant_id AND j.job_id = next.job_id
        RETURNING j.*`.execute(db)
      const row = result.rows[0]
      return row ? jobFromRow(row) : null
    },

    async addProgress(job, workerId, delta) {
      const row = await updateHeld(job, workerId, {
        items_processed: sql`items_processed + ${delta.items_processed}`,
        items_affected: sql`items_affected + ${delta.items_affected}`,
        tokens_saved: sql`tokens_saved + ${delta.tokens_saved}`,
        heartbeat_at: sql`now()`,
      })
      return row !== null
    },

    heartbeat: async (job, workerId) =>
      (await updateHeld(job, workerId, { heartbeat_at: sql`now()` })) !== null,

    complete: async (job, workerId, metadata) =>
      (await updateHeld(job, workerId, {
        status: 'completed',
        metadata: JSON.stringify(metadata),
        completed_at: sql`now()`,
        heartbeat_at: sql`now()`,
      })) !== null,

    async fail(job, workerId, error, { maxFailures, backoffSeconds }) {
      const cap = Math.max(backoffSeconds, MAX_BACKOFF_SECONDS)
      const row = await updateHeld(job, workerId, {
        status: sql`CASE WHEN failures + 1 >= ${maxFailures} THEN 'dead' ELSE 'failed' END`,
        failures: sql`failures + 1`,
        error_message: error,
        completed_at: sql`now()`,
        heartbeat_at: sql`now()`,
        run_after: sql`CASE WHEN failures + 1 >= ${maxFailures} THEN NULL
          ELSE now() + make_interval(secs => least(${cap}::float8,
            ${backoffSeconds}::float8 * power(2, failures))) END`,
      })
      // The CASE above leaves the row failed or dead.
      return row === null ? null : row.status === 'dead' ? 'dead' : 'failed'
    },

    release: async (job, workerId) =>
      (await updateHeld(job, workerId, {
        status: 'pending',
        worker_id: null,
        heartbeat_at: null,
      })) !== null,

    async get(tenantId, jobId) {
      const row = await db
        .selectFrom('consolidation_jobs')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('job_id', '=', jobId)
        .executeTakeFirst()
      return row ? jobFromRow(row) : null
    },

    async queueCounts() {
      const rows = await db
        .selectFrom('consolidation_jobs')
        .select(['status', sql<string>`count(*)`.as('count')])
        .groupBy('status')
        .execute()
      const due = await sql<{ count: string }>`
        SELECT count(*) AS count FROM consolidation_jobs
        WHERE status IN ('pending', 'failed') AND (run_after IS NULL OR run_after <= now())`.execute(
        db,
      )
      return {
        byStatus: Object.fromEntries(rows.map((row) => [row.status, num(row.count)])),
        due: num(due.rows[0]?.count ?? 0),
      }
    },

    async list(tenantId, { status, limit }) {
      let query = db
        .selectFrom('consolidation_jobs')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at', 'desc')
        .orderBy('job_id', 'desc')
        .limit(limit)
      if (status) query = query.where('status', '=', status)
      return (await query.execute()).map(jobFromRow)
    },
  }
}
