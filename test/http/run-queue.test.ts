/**
 * `POST /api/v1/consolidation/run` queues and answers at once (issue 22 item 8), on both
 * databases over a socket: 202 with the jobs' ids, which a worker then runs in the seed's order;
 * `?wait=true` answers in the seed's blocking shape; unknown query parameters are 400. And
 * `somnus serve --no-worker` consolidates nothing in its own process: its queued jobs wait for a
 * `somnus worker` (which, on PostgreSQL, runs them while the server's `?wait=true` request waits).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { type Answer, get, handoffBody, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import { startServe } from '../support/serve-process.ts'
import {
  dropSchema,
  ENGINES,
  engineAvailable,
  freshSchemaName,
  HAS_POSTGRES,
  POSTGRES_URL,
} from '../support/service-database.ts'

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
  describe.skipIf(!engineAvailable(engine))(`POST /run on ${engine}, over a socket`, () => {
    let api: HttpServiceFixture
    const send = (path: string, init?: RequestInit) => api.send(path, init) as Promise<Answer>
    beforeAll(async () => {
      api = await openHttpService(engine, 'socket')
    })
    afterAll(async () => {
      await api?.close()
    })

    it('queues the jobs and answers 202 with their ids; a worker runs them in the seed order', async () => {
      const key = api.keys.first
      for (let index = 0; index < 5; index += 1) {
        const body = handoffBody(`s-queue-${index}`, { created_at: '2025-01-01T00:00:00Z' })
        expect((await send('/api/v1/handoffs', json(key, body))).status).toBe(201)
      }
      const queued = await send('/api/v1/consolidation/run', json(key, { job_type: 'all' }))
      expect(queued.status).toBe(202)
      const answer = await queued.json()
      expect(answer).toMatchObject({ success: true, tenant_id: api.tenants.first, job_type: 'all' })
      expect(answer.jobs.map((job: { job_type: string }) => job.job_type)).toEqual([
        'identity_consolidation',
        'handoff_compression',
        'decision_archival',
      ])
      for (const job of answer.jobs) {
        expect(job.status).toBe('pending')
        expect(job.job_id).toMatch(/^cj_[0-9a-f]{16}$/)
      }
      const ended = []
      for (const { job_id } of answer.jobs) {
        ended.push(
          await until(async () => {
            const read = await (await send(`/api/v1/consolidation/jobs/${job_id}`, get(key))).json()
            return read.job.status === 'completed' ? read.job : null
          }),
        )
      }
      const starts = ended.map((job) => Date.parse(job.started_at))
      expect(starts).toEqual([...starts].sort((a, b) => a - b))
      expect(ended[1]).toMatchObject({ items_affected: 5 })
      // Another tenant's job is not found, as if it did not exist.
      const foreign = await send(
        `/api/v1/consolidation/jobs/${answer.jobs[0].job_id}`,
        get(api.keys.second),
      )
      expect(foreign.status).toBe(404)
    })

    it("answers ?wait=true in the seed's shape once the jobs have ended", async () => {
      const response = await send(
        '/api/v1/consolidation/run?wait=true',
        json(api.keys.second, { job_type: 'decision_archival' }),
      )
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({
        success: true,
        tenant_id: api.tenants.second,
        job_type: 'decision_archival',
        results: [
          { job_type: 'decision_archival', items_processed: 0, details: { status: 'completed' } },
        ],
      })
    })

    it('refuses unknown and repeated query parameters with 400 naming them', async () => {
      const key = api.keys.first
      const jobCount = async () =>
        (await (await send('/api/v1/consolidation/jobs?limit=1000', get(key))).json()).count
      const before = await jobCount()
      const cases: Array<[string, RequestInit, string]> = [
        ['/api/v1/consolidation/run?tenant_id=globex', json(key, {}), 'tenant_id'],
        ['/api/v1/consolidation/run?wait=yes', json(key, {}), 'wait'],
        ['/api/v1/handoffs?limt=5', get(key), 'limt'],
        ['/api/v1/handoffs?tenant_id=acme&verbose=1', json(key, handoffBody('s')), 'verbose'],
        ['/api/v1/consolidation/stats?since=2026-01-01', get(key), 'since'],
        ['/api/v1/decisions/d1?expand=all', get(key), 'expand'],
        // A repeated parameter: which value counts would be a guess.
        ['/api/v1/handoffs?limit=1&limit=2', get(key), 'limit'],
        ['/api/v1/consolidation/run?wait=true&wait=false', json(key, {}), 'wait'],
      ]
      for (const [path, init, field] of cases) {
        const response = await send(path, init)
        expect(response.status, path).toBe(400)
        expect((await response.json()).error.field, path).toBe(field)
      }
      // Nothing was queued by the refused runs.
      expect(await jobCount()).toBe(before)
    })
  })
}

describe('somnus serve --no-worker', () => {
  let folder: string
  beforeAll(async () => {
    await ensureBuilt()
    folder = mkdtempSync(join(tmpdir(), 'somnus-no-worker-'))
  }, 300_000)
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  const noAuthRun = (url: string, query = '') =>
    fetch(`${url}/api/v1/consolidation/run${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 'default', job_type: 'decision_archival' }),
    })

  function worker(db: string): ChildProcess {
    return spawn(process.execPath, [SOMNUS_BIN, 'worker', '--db', db, '--until-empty'], {
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: folder },
    })
  }
  const exited = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))

  it('consolidates nothing in its process (PGlite): its jobs wait for a worker', async () => {
    const db = join(folder, 'db')
    const env = { HOME: folder }
    const server = await startServe(
      ['--db', db, '--port', '0', '--no-auth', '--no-worker', '--no-scheduler'],
      { env },
    )
    let jobId: string
    let stopped = false
    try {
      const queued = await noAuthRun(server.url)
      expect(queued.status).toBe(202)
      jobId = ((await queued.json()) as { jobs: Array<{ job_id: string }> }).jobs[0]?.job_id ?? ''
      // A worker in the process would have taken it within its 1 s poll; it stays queued.
      await new Promise((resolve) => setTimeout(resolve, 2500))
      const read = await fetch(`${server.url}/api/v1/consolidation/jobs/${jobId}`)
      expect(((await read.json()) as { job: { status: string } }).job.status).toBe('pending')
      // A request waiting for jobs no worker here will run does not hold the server open.
      const waiting = noAuthRun(server.url, '?wait=true')
      await new Promise((resolve) => setTimeout(resolve, 500))
      server.child.kill('SIGTERM')
      stopped = true
      const cut = await waiting
      expect(cut.status).toBe(503)
      expect(((await cut.json()) as { error: { message: string } }).error.message).toContain(
        'stays queued for a worker',
      )
    } finally {
      // A second SIGTERM would find the first one's handler gone and kill it outright.
      if (!stopped) server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    }
    expect(await exited(worker(db))).toBe(0)
    const after = await startServe(
      ['--db', db, '--port', '0', '--no-auth', '--no-worker', '--no-scheduler'],
      { env },
    )
    try {
      const read = await fetch(`${after.url}/api/v1/consolidation/jobs/${jobId}`)
      expect(((await read.json()) as { job: { status: string } }).job.status).toBe('completed')
    } finally {
      after.child.kill('SIGTERM')
      await after.exited
    }
  }, 120_000)

  it.skipIf(!HAS_POSTGRES)(
    'answers ?wait=true when a worker elsewhere has run the jobs (PostgreSQL)',
    async () => {
      const schema = freshSchemaName('noworker')
      const db = `${POSTGRES_URL}?schema=${schema}`
      const server = await startServe(
        ['--db', db, '--port', '0', '--no-auth', '--no-worker', '--no-scheduler'],
        { env: { HOME: folder } },
      )
      try {
        const waiting = noAuthRun(server.url, '?wait=true')
        await new Promise((resolve) => setTimeout(resolve, 500))
        expect(await exited(worker(db))).toBe(0)
        const response = await waiting
        expect(response.status).toBe(200)
        const body = (await response.json()) as {
          results: Array<{ job_id: string; details: { status: string } }>
        }
        expect(body.results.map((result) => result.details.status)).toEqual(['completed'])
        const job = (await (
          await fetch(`${server.url}/api/v1/consolidation/jobs/${body.results[0]?.job_id}`)
        ).json()) as { job: { worker_id: string } }
        // Run by the worker process, not the server's.
        expect(job.job.worker_id).not.toContain(`:${server.child.pid}:`)
      } finally {
        server.child.kill('SIGTERM')
        await server.exited
        await dropSchema(schema)
      }
    },
    120_000,
  )
})
