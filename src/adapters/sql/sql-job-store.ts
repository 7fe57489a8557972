/**
 * JobStore on SQL (`consolidation_jobs`). Claims use `FOR UPDATE SKIP LOCKED`; a worker's lease is
 * its `heartbeat_at`, renewed with every progress report and judged by the database's clock, so
 * workers on machines with different clocks agree on who died.
 */
import { type Kysely, type Selectable, sql } from 'kysely'
import type { ConsolidationJob, JobStatus, JobType } from '../../core/service/consolidation-job.ts'
import type { JobProgress, JobStore, NewJob } from '../../ports/service-stores.ts'
import type { ConsolidationJobsTable, ServiceDatabase } from './database-schema.ts'
import { iso, isoOrNull, json } from './sql-values.ts'

/** Jobs per INSERT: 8 parameters each keeps a statement far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000

function jobFromRow(row: Selectable<ConsolidationJobsTable>): ConsolidationJob {
  return {
    job_id: row.job_id,
    tenant_id: row.tenant_id,
    job_type: row.job_type as JobType,
    status: row.status as JobStatus,
    scheduled_for: isoOrNull(row.scheduled_for),
    as_of: isoOrNull(row.as_of),
    started_at: isoOrNull(row.started_at),
    completed_at: isoOrNull(row.completed_at),
    items_processed: row.items_processed,
    items_affected: row.items_affected,
    error_message: row.error_message,
    metadata: json<Record<string, unknown>>(row.metadata),
    created_at: iso(row.created_at),
    worker_id: row.worker_id,
    heartbeat_at: isoOrNull(row.heartbeat_at),
    attempts: row.attempts,
  }
}

function rowOf(job: NewJob) {
  return { ...job, status: 'pending', metadata: JSON.stringify(job.metadata) }
}

function progressOf(progress: JobProgress) {
  return {
    items_processed: progress.items_processed,
    items_affected: progress.items_affected,
    metadata: JSON.stringify(progress.metadata),
  }
}

/** A JobStore over `db` (the database or a transaction). */
export function sqlJobStore(db: Kysely<ServiceDatabase>): JobStore {
  /** Ends or renews the job `workerId` holds; false when the lease is gone. */
  const updateHeld = async (
    jobId: string,
    workerId: string,
    set: Record<string, unknown>,
  ): Promise<boolean> => {
    const rows = await db
      .updateTable('consolidation_jobs')
      .set(set)
      .where('job_id', '=', jobId)
      .where('worker_id', '=', workerId)
      .where('status', '=', 'running')
      .returning('job_id')
      .execute()
    return rows.length > 0
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

    async claim(workerId, { timeoutSeconds, jobId }) {
      const onlyJob = jobId === undefined ? sql`` : sql`AND job_id = ${jobId}`
      const result = await sql<Selectable<ConsolidationJobsTable>>`
        UPDATE consolidation_jobs SET
          status = 'running', worker_id = ${workerId}, started_at = now(), heartbeat_at = now(),
          attempts = attempts + 1, completed_at = NULL
        WHERE (tenant_id, job_id) = (
          SELECT tenant_id, job_id FROM consolidation_jobs
          WHERE (status = 'pending'
              OR (status = 'running' AND heartbeat_at < now() - make_interval(secs => ${timeoutSeconds})))
            ${onlyJob}
          ORDER BY created_at, job_id
          LIMIT 1
          FOR UPDATE SKIP LOCKED)
        RETURNING *`.execute(db)
      const row = result.rows[0]
      return row ? jobFromRow(row) : null
    },

    heartbeat: (jobId, workerId, progress) =>
      updateHeld(jobId, workerId, { ...progressOf(progress), heartbeat_at: sql`now()` }),

    complete: (jobId, workerId, progress) =>
      updateHeld(jobId, workerId, {
        ...progressOf(progress),
        status: 'completed',
        completed_at: sql`now()`,
        heartbeat_at: sql`now()`,
      }),

    fail: (jobId, workerId, error, progress) =>
      updateHeld(jobId, workerId, {
        ...progressOf(progress),
        status: 'failed',
        error_message: error,
        completed_at: sql`now()`,
        heartbeat_at: sql`now()`,
      }),

    release: (jobId, workerId, progress) =>
      updateHeld(jobId, workerId, {
        ...progressOf(progress),
        status: 'pending',
        worker_id: null,
        heartbeat_at: null,
      }),

    async get(tenantId, jobId) {
      const row = await db
        .selectFrom('consolidation_jobs')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('job_id', '=', jobId)
        .executeTakeFirst()
      return row ? jobFromRow(row) : null
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
