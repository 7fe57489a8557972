/**
 * Job rows tell the truth across attempts (issue 22 item 9), on both databases: a job taken over
 * from a worker that stopped reporting (frozen, as by SIGSTOP) keeps that worker's counts and its
 * first start, adds the new worker's, and the frozen worker, once it wakes, changes nothing; a job
 * that keeps failing is retried by policy (after its backoff) and then dead-lettered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExtractiveLanguageModel } from '../../src/engine/adapters/llm/extractive-language-model.ts'
import type { LanguageModel } from '../../src/engine/ports/language-model.ts'
import { createHandoffs } from '../../src/service/app/create-handoffs.ts'
import { type JobEnd, runClaimedJob } from '../../src/service/app/run-claimed-job.ts'
import { workJobs } from '../../src/service/app/work-jobs.ts'
import {
  ENGINES,
  engineAvailable,
  openTestDatabase,
  type TestDatabase,
} from '../support/service-database.ts'
import { daysAgo, NOW, serviceDependencies } from '../support/service-fixtures.ts'

const TOPICS = ['deploy', 'database', 'cache', 'login', 'search', 'billing']

function experience(seed: number): string {
  return Array.from(
    { length: 25 },
    (_, index) =>
      `Step ${index} of task ${seed}: the ${TOPICS[(seed + index) % TOPICS.length]} check failed with code ${(seed * 31 + index) % 997} and we raised its limit to ${index + seed}.`,
  ).join(' ')
}

/** Waits until `probe` answers something truthy. */
async function until<T>(probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + 60_000
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`job attempts on ${engine}`, () => {
    let test: TestDatabase
    let count = 0
    beforeAll(async () => {
      test = await openTestDatabase(engine)
    })
    afterAll(async () => {
      await test?.dispose()
    })

    /** A tenant with `handoffs` 45-day-old handoffs and a compression job for them. */
    async function tenantWithJob(handoffs: number, config: Record<string, unknown>) {
      count += 1
      const id = `attempts-${count}`
      await test.stores.tenants.create({ tenant_id: id, name: id, created_at: NOW.toISOString() })
      const dependencies = serviceDependencies(test.stores, config, id)
      await createHandoffs(
        dependencies,
        id,
        Array.from({ length: handoffs }, (_, index) => ({
          created_at: daysAgo(45),
          experienced: experience(index),
        })),
      )
      const job = await test.stores.jobs.enqueue({
        job_id: `${id}-job`,
        tenant_id: id,
        job_type: 'handoff_compression',
        scheduled_for: null,
        as_of: NOW.toISOString(),
        metadata: {},
        created_at: NOW.toISOString(),
      })
      return { id, dependencies, job }
    }

    it('after a take-over the row holds every attempt: cumulative counts, first start, attempts', async () => {
      const config = { compression_batch_size: 10, job_timeout_seconds: 1 }
      const { id, dependencies, job } = await tenantWithJob(60, config)
      // The first worker freezes after 25 summaries: no heartbeats, no more batches.
      const base = createExtractiveLanguageModel()
      let calls = 0
      let frozen: () => void = () => {}
      const froze = new Promise<void>((resolve) => {
        frozen = resolve
      })
      let thaw: () => void = () => {}
      const thawed = new Promise<void>((resolve) => {
        thaw = resolve
      })
      const freezing: LanguageModel = {
        ...base,
        name: base.name,
        summarize: async (request) => {
          calls += 1
          if (calls > 25) {
            frozen()
            await thawed
          }
          return base.summarize(request)
        },
      }
      const stores = { ...test.stores, jobs: { ...test.stores.jobs, heartbeat: async () => true } }
      const claimed = await test.stores.jobs.claim('frozen', {
        timeoutSeconds: 1,
        maxFailures: 3,
        job: { tenant_id: id, job_id: job.job_id },
      })
      expect(claimed).not.toBeNull()
      if (claimed === null) return
      const firstEnd = runClaimedJob({ ...dependencies, model: freezing, stores }, claimed, {
        workerId: 'frozen',
      })
      await froze
      // Its second batch was written while the third was being summarized: it commits.
      await until(async () => (await test.stores.jobs.get(id, job.job_id))?.items_processed === 20)

      // A second worker takes the job once the lease (1 s) runs out, and finishes it.
      const ends: JobEnd[] = []
      await until(async () => {
        await workJobs(dependencies, {
          workerId: 'second',
          signal: new AbortController().signal,
          untilEmpty: true,
          onJobEnd: (end) => ends.push(end),
        })
        return ends.length > 0
      })
      expect(ends.map((end) => end.status)).toEqual(['completed'])
      // The frozen worker wakes: its batch is refused and it writes nothing more.
      thaw()
      expect((await firstEnd).status).toBe('lost')

      const done = await test.stores.jobs.get(id, job.job_id)
      const [stat] = await test.stores.stats.list(id, { limit: 1 })
      expect(done).toMatchObject({
        status: 'completed',
        items_processed: 60,
        items_affected: 60,
        tokens_saved: stat?.tokens_saved,
        started_at: claimed.started_at,
        attempts: 2,
        failures: 1,
        worker_id: 'second',
      })
      expect(stat).toMatchObject({ before_count: 60, after_count: 60 })
      expect(done?.error_message).toContain('worker frozen stopped reporting')
      expect(await test.stores.handoffs.levelCounts(id)).toEqual([
        expect.objectContaining({ level: 'summary', count: 60 }),
      ])
    })

    it('retries a failing job by policy, then dead-letters it', async () => {
      const failing: LanguageModel = {
        ...createExtractiveLanguageModel(),
        name: 'failing',
        summarize: async () => {
          throw new Error('model unavailable')
        },
        summarizeLevels: undefined,
      }
      const worker = async (dependencies: ReturnType<typeof serviceDependencies>) => {
        const ends: JobEnd[] = []
        await workJobs(
          { ...dependencies, model: failing },
          {
            workerId: 'w',
            signal: new AbortController().signal,
            untilEmpty: true,
            onJobEnd: (end) => ends.push(end),
          },
        )
        return ends.map((end) => (end.status === 'failed' ? end.as : end.status))
      }

      // With a backoff, a failed job waits: the worker finds nothing to do until its time comes.
      const waiting = await tenantWithJob(3, { job_retry_backoff_seconds: 60 })
      expect(await worker(waiting.dependencies)).toEqual(['failed'])
      const failed = await test.stores.jobs.get(waiting.id, waiting.job.job_id)
      expect(failed).toMatchObject({ status: 'failed', failures: 1, attempts: 1 })
      expect(Date.parse(failed?.run_after ?? '')).toBeGreaterThan(Date.now() + 50_000)

      // Without one it is retried at once, up to the limit, then dead-lettered.
      const limited = await tenantWithJob(3, {
        job_retry_backoff_seconds: 0,
        job_max_failures: 3,
      })
      expect(await worker(limited.dependencies)).toEqual(['failed', 'failed', 'dead'])
      expect(await test.stores.jobs.get(limited.id, limited.job.job_id)).toMatchObject({
        status: 'dead',
        failures: 3,
        attempts: 3,
        error_message: 'model unavailable',
      })
      const listed = await test.stores.jobs.list(limited.id, { limit: 5, status: 'dead' })
      expect(listed.map((job) => job.job_id)).toEqual([limited.job.job_id])
    })
  })
}
