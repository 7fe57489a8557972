/**
 * Several workers on one PostgreSQL: two racing over a queue never run a job twice; a real
 * `somnus worker` killed with SIGKILL mid-job has its job taken over after the timeout and
 * finished without counting anything twice; SIGTERM releases the running job; two schedulers
 * enqueue each scheduled run once.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSomnusService } from '../../src/brain/create-somnus.ts'
import { openSqlServiceStores } from '../../src/service/adapters/sql/sql-service-stores.ts'
import { createHandoffs } from '../../src/service/app/create-handoffs.ts'
import type { JobEnd } from '../../src/service/app/run-claimed-job.ts'
import { workJobs } from '../../src/service/app/work-jobs.ts'
import type { ServiceStores } from '../../src/service/ports/service-stores.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import {
  dropSchema,
  freshSchemaName,
  HAS_POSTGRES,
  POSTGRES_SKIP_REASON,
  POSTGRES_URL,
} from '../support/service-database.ts'
import { daysAgo, NOW, serviceDependencies } from '../support/service-fixtures.ts'

const TOPICS = ['deploy', 'database', 'cache', 'login', 'search', 'billing']

function experience(seed: number): string {
  return Array.from(
    { length: 30 },
    (_, index) =>
      `Step ${index} of task ${seed}: the ${TOPICS[(seed + index) % TOPICS.length]} check failed with code ${(seed * 31 + index) % 997} and we raised its limit to ${index + seed}.`,
  ).join(' ')
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      return resolve({ code: child.exitCode, signal: child.signalCode })
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
}

describe.skipIf(!HAS_POSTGRES)('workers and schedulers on one PostgreSQL', () => {
  const schema = freshSchemaName('workers')
  const url = `${POSTGRES_URL}?schema=${schema}`
  let stores: ServiceStores
  let otherStores: ServiceStores
  const folder = mkdtempSync(join(tmpdir(), 'somnus-workers-'))
  const configFile = join(folder, 'service.json')
  writeFileSync(
    configFile,
    JSON.stringify({
      job_timeout_seconds: 2,
      compression_batch_size: 25,
      schedule: { daily: '', weekly: '', monthly: '' },
    }),
  )

  beforeAll(async () => {
    await ensureBuilt()
    stores = (await openSqlServiceStores({ kind: 'postgres', url: POSTGRES_URL, schema })).stores
    otherStores = (await openSqlServiceStores({ kind: 'postgres', url: POSTGRES_URL, schema }))
      .stores
  }, 300_000)
  afterAll(async () => {
    await stores?.close()
    await otherStores?.close()
    await dropSchema(schema)
  })

  it('two workers racing over 60 jobs run each exactly once', async () => {
    const dependencies = serviceDependencies(stores, { compression_batch_size: 5 }, 'race')
    const tenants = Array.from({ length: 30 }, (_, index) => `race-${index}`)
    for (const tenant of tenants) {
      await stores.tenants.create({
        tenant_id: tenant,
        name: tenant,
        created_at: NOW.toISOString(),
      })
      await createHandoffs(
        dependencies,
        tenant,
        Array.from({ length: 12 }, (_, index) => ({
          created_at: daysAgo(40 + index),
          experienced: experience(index),
        })),
      )
      for (const jobType of ['handoff_compression', 'decision_archival'] as const) {
        await stores.jobs.enqueue({
          job_id: `${tenant}-${jobType}`,
          tenant_id: tenant,
          job_type: jobType,
          scheduled_for: null,
          as_of: NOW.toISOString(),
          metadata: {},
          created_at: NOW.toISOString(),
        })
      }
    }
    const ends: Record<string, JobEnd[]> = { a: [], b: [] }
    const run = (name: 'a' | 'b', over: ServiceStores) =>
      workJobs(serviceDependencies(over, { compression_batch_size: 5 }, name), {
        workerId: name,
        signal: new AbortController().signal,
        untilEmpty: true,
        onJobEnd: (end) => ends[name]?.push(end),
      })
    await Promise.all([run('a', stores), run('b', otherStores)])
    const byA = ends.a?.map((end) => end.job.job_id) ?? []
    const byB = ends.b?.map((end) => end.job.job_id) ?? []
    expect(byA.length).toBeGreaterThan(0)
    expect(byB.length).toBeGreaterThan(0)
    expect(byA.filter((id) => byB.includes(id))).toEqual([])
    expect(new Set([...byA, ...byB]).size).toBe(60)
    for (const tenant of tenants) {
      const jobs = await stores.jobs.list(tenant, { limit: 10 })
      for (const job of jobs) expect(job).toMatchObject({ status: 'completed', attempts: 1 })
      const [stat] = await stores.stats.list(tenant, { limit: 5 })
      expect(stat).toMatchObject({
        compression_type: 'handoff_compression',
        before_count: 12,
        after_count: 12,
      })
    }
  })

  /** Starts a real `somnus worker` on the test schema. */
  function startWorker(...extra: string[]): ChildProcess & { output: () => string } {
    const child = spawn(
      process.execPath,
      [SOMNUS_BIN, 'worker', '--db', url, '--config', configFile, '--poll', '100', ...extra],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let output = ''
    child.stdout?.on('data', (chunk) => {
      output += String(chunk)
    })
    child.stderr?.on('data', (chunk) => {
      output += String(chunk)
    })
    return Object.assign(child, { output: () => output })
  }

  async function bigJob(tenant: string, count: number): Promise<string> {
    const dependencies = serviceDependencies(stores, {}, tenant)
    await stores.tenants.create({ tenant_id: tenant, name: tenant, created_at: NOW.toISOString() })
    for (let start = 0; start < count; start += 500) {
      await createHandoffs(
        dependencies,
        tenant,
        Array.from({ length: Math.min(500, count - start) }, (_, index) => ({
          created_at: daysAgo(45),
          experienced: experience(start + index),
        })),
      )
    }
    const jobId = `${tenant}-job`
    await stores.jobs.enqueue({
      job_id: jobId,
      tenant_id: tenant,
      job_type: 'handoff_compression',
      scheduled_for: null,
      as_of: NOW.toISOString(),
      metadata: {},
      created_at: NOW.toISOString(),
    })
    return jobId
  }

  it('a worker killed with SIGKILL mid-job: its job is taken over after the timeout and finished exactly once', async () => {
    const jobId = await bigJob('killed', 1500)
    const first = startWorker('--until-empty')
    const running = await until('the first worker to be mid-job', async () => {
      const job = await stores.jobs.get('killed', jobId)
      return job && job.status === 'running' && job.items_processed >= 50 ? job : null
    })
    first.kill('SIGKILL')
    await exited(first)
    const orphan = await stores.jobs.get('killed', jobId)
    expect(orphan).toMatchObject({ status: 'running', worker_id: running.worker_id })
    expect(orphan?.items_processed).toBeLessThan(1500)

    // The second worker finds the job held until its lease (2 s here) runs out, then takes it.
    const second = startWorker()
    const done = await until('the second worker to finish the job', async () => {
      const job = await stores.jobs.get('killed', jobId)
      return job?.status === 'completed' ? job : null
    })
    second.kill('SIGTERM')
    expect((await exited(second)).code, second.output()).toBe(0)
    expect(second.output()).toContain('attempt 2')
    expect(done).toMatchObject({ status: 'completed', attempts: 2 })
    expect(done?.worker_id).not.toBe(running.worker_id)
    expect(await stores.handoffs.levelCounts('killed')).toEqual([
      expect.objectContaining({ level: 'summary', count: 1500 }),
    ])
    // Batches commit with their stats: the dead worker's finished batches are counted once.
    const [stat] = await stores.stats.list('killed', { limit: 1 })
    expect(stat).toMatchObject({ before_count: 1500, after_count: 1500 })
  })

  it('SIGTERM puts the running job back to pending and exits 0; the next worker completes it', async () => {
    const jobId = await bigJob('termed', 1500)
    const worker = startWorker()
    await until('the worker to be mid-job', async () => {
      const job = await stores.jobs.get('termed', jobId)
      return job && job.status === 'running' && job.items_processed >= 50 ? job : null
    })
    worker.kill('SIGTERM')
    const { code } = await exited(worker)
    expect(code, worker.output()).toBe(0)
    expect(worker.output()).toContain('released')
    const released = await stores.jobs.get('termed', jobId)
    expect(released).toMatchObject({ status: 'pending', worker_id: null })
    const next = startWorker('--until-empty')
    expect((await exited(next)).code).toBe(0)
    expect(await stores.jobs.get('termed', jobId)).toMatchObject({
      status: 'completed',
      attempts: 2,
    })
    const [stat] = await stores.stats.list('termed', { limit: 1 })
    expect(stat).toMatchObject({ before_count: 1500 })
  })

  it('two schedulers firing every second enqueue each run once', async () => {
    const config = { schedule: { daily: '* * * * * *', weekly: '', monthly: '' } }
    const one = await createSomnusService({ database: url, config })
    const two = await createSomnusService({ database: url, config })
    const started = new Date()
    const stops = [await one.startScheduler(), await two.startScheduler()]
    await new Promise((resolve) => setTimeout(resolve, 3500))
    for (const stop of stops) stop()
    const jobs = (await stores.jobs.list('default', { limit: 1000 })).filter(
      (job) =>
        job.scheduled_for !== null && Date.parse(job.scheduled_for) >= started.getTime() - 1000,
    )
    const slots = jobs.map((job) => `${job.job_type}@${job.scheduled_for}`)
    expect(slots.length).toBeGreaterThanOrEqual(3)
    expect(new Set(slots).size).toBe(slots.length)
    await one.close()
    await two.close()
  })
})

// Only where PostgreSQL is down: a skipped describe still counts its test as skipped.
if (!HAS_POSTGRES) {
  describe('workers and schedulers on one PostgreSQL', () => {
    it.skip(POSTGRES_SKIP_REASON, () => {})
  })
}
