/**
 * The HTTP API's behaviour, written once and run on both databases (PGlite, PostgreSQL) and over
 * both transports (app.request in-process, fetch over a real socket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorResponseSchema } from '../../src/surfaces/http/schemas/common-schemas.ts'
import {
  JobResponseSchema,
  JobsResponseSchema,
  QueuedResponseSchema,
  RunResponseSchema,
  StatsResponseSchema,
} from '../../src/surfaces/http/schemas/consolidation-schemas.ts'
import {
  DecisionPageSchema,
  DecisionResponseSchema,
} from '../../src/surfaces/http/schemas/decision-schemas.ts'
import {
  HandoffPageSchema,
  HandoffResponseSchema,
} from '../../src/surfaces/http/schemas/handoff-schemas.ts'
import { errorCases } from './http-api-error-cases.ts'
import { type Answer, type ApiFixture, get, handoffBody, json } from './http-api-requests.ts'

/** Defines the suite under `name`; `setup` runs once for the file. */
export function describeHttpApi(name: string, setup: () => Promise<ApiFixture>): void {
  describe(name, () => {
    let api: ApiFixture
    const send = (path: string, init?: RequestInit) => api.send(path, init) as Promise<Answer>
    beforeAll(async () => {
      api = await setup()
    })
    afterAll(async () => {
      await api?.close()
    })

    it('answers health and serves /openapi.json and /docs without a key', async () => {
      expect((await send('/health')).status).toBe(200)
      const document = await (await send('/openapi.json')).json()
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/consolidation/run',
          '/api/v1/consolidation/stats',
          '/api/v1/consolidation/jobs',
          '/api/v1/handoffs',
          '/api/v1/handoffs/{handoff_id}',
          '/api/v1/decisions',
          '/api/v1/decisions/{decision_id}',
          '/api/v1/principles',
        ]),
      )
      expect((await send('/docs')).headers.get('content-type')).toContain('text/html')
    })

    it('refuses every /api route without a valid key (401)', async () => {
      for (const [path, init] of [
        ['/api/v1/consolidation/stats', get(null)],
        ['/api/v1/consolidation/jobs', get('not-a-key')],
        ['/api/v1/handoffs', json(null, handoffBody('s-nokey'))],
        ['/api/v1/handoffs', json('sk_wrong', handoffBody('s-nokey'))],
        ['/api/v1/consolidation/run', json(null, { job_type: 'all' })],
      ] as const) {
        const response = await send(path, init)
        expect(response.status, path).toBe(401)
        expect((await response.json()).error.code).toBe('UNAUTHORIZED')
      }
    })

    it('stores a handoff and reads it back at level full, with X-API-Key too', async () => {
      const created = await send(
        '/api/v1/handoffs',
        json(api.keys.first, handoffBody('s-read', { created_at: '2026-01-02T03:04:05Z' })),
      )
      expect(created.status).toBe(201)
      const { handoff } = await created.json()
      expect(handoff).toMatchObject({
        session_id: 's-read',
        compression_level: 'full',
        tenant_id: api.tenants.first,
        tags: ['perf', 'sql'],
        significance: 0.7,
      })
      expect(new Date(handoff.created_at).toISOString()).toBe('2026-01-02T03:04:05.000Z')
      // 64 random bits: a service holds millions of handoffs, where 32-bit ids would collide.
      expect(handoff.handoff_id).toMatch(/^ho_[0-9a-f]{16}$/)
      const read = await send(`/api/v1/handoffs/${handoff.handoff_id}`, {
        headers: { 'x-api-key': api.keys.first },
      })
      expect(read.status).toBe(200)
      expect((await read.json()).handoff.experienced).toBe(handoff.experienced)
    })

    it('pages through handoffs with next_cursor, newest first, each once', async () => {
      for (let index = 0; index < 5; index++) {
        const body = handoffBody(`s-page-${index}`, {
          created_at: new Date(Date.UTC(2025, 0, 10 + index)).toISOString(),
        })
        expect((await send('/api/v1/handoffs', json(api.keys.second, body))).status).toBe(201)
      }
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
        const response = await send(`/api/v1/handoffs?limit=2${query}`, get(api.keys.second))
        expect(response.status).toBe(200)
        const page = await response.json()
        expect(page.count).toBeLessThanOrEqual(2)
        seen.push(...page.handoffs.map((handoff: { session_id: string }) => handoff.session_id))
        cursor = page.next_cursor
      } while (cursor !== null)
      expect(seen).toEqual(['s-page-4', 's-page-3', 's-page-2', 's-page-1', 's-page-0'])
    })

    it("shows a key nothing of another tenant's: every endpoint", async () => {
      const { first, second } = api.keys
      const mine = await (
        await send('/api/v1/handoffs', json(first, handoffBody('s-secret')))
      ).json()
      const decision = await (
        await send('/api/v1/decisions', json(first, { decision: 'Keep the originals' }))
      ).json()
      const other = api.tenants.first
      // Reading the first tenant's objects or naming its tenant with the second tenant's key: 404.
      for (const [path, init] of [
        [`/api/v1/handoffs/${mine.handoff.handoff_id}`, get(second)],
        [`/api/v1/decisions/${decision.decision.decision_id}`, get(second)],
        [`/api/v1/handoffs?tenant_id=${other}`, get(second)],
        [`/api/v1/decisions?tenant_id=${other}`, get(second)],
        [`/api/v1/principles?tenant_id=${other}`, get(second)],
        [`/api/v1/consolidation/stats?tenant_id=${other}`, get(second)],
        [`/api/v1/consolidation/jobs?tenant_id=${other}`, get(second)],
        [`/api/v1/handoffs?tenant_id=${other}`, json(second, handoffBody('s-intruder'))],
        [`/api/v1/decisions?tenant_id=${other}`, json(second, { decision: 'x' })],
        ['/api/v1/consolidation/run', json(second, { tenant_id: other, job_type: 'all' })],
      ] as const) {
        const response = await send(path, init)
        expect(response.status, `${init.method ?? 'GET'} ${path}`).toBe(404)
        expect((await response.json()).success).toBe(false)
      }
      // Its own lists never contain the first tenant's rows.
      const handoffs = await (await send('/api/v1/handoffs?limit=500', get(second))).json()
      expect(handoffs.handoffs.map((h: { session_id: string }) => h.session_id)).not.toContain(
        's-secret',
      )
      const decisions = await (await send('/api/v1/decisions?limit=500', get(second))).json()
      expect(decisions.decisions.map((d: { decision: string }) => d.decision)).not.toContain(
        'Keep the originals',
      )
      // Nothing the second key sent reached the first tenant.
      const firstList = await (await send('/api/v1/handoffs?limit=500', get(first))).json()
      expect(firstList.handoffs.map((h: { session_id: string }) => h.session_id)).not.toContain(
        's-intruder',
      )
    })

    it('runs consolidation with the seed shapes and lists the jobs it ran, per tenant', async () => {
      // Twelve old sessions that keep saying the same thing: past the 10 statements grouping needs.
      for (let index = 0; index < 12; index++) {
        const body = handoffBody(`s-old-${index}`, {
          created_at: new Date(Date.UTC(2025, 5, 1 + index)).toISOString(),
          becoming: `someone who measures the slow path before changing any code (week ${index})`,
        })
        expect((await send('/api/v1/handoffs', json(api.keys.first, body))).status).toBe(201)
      }
      const run = await send(
        '/api/v1/consolidation/run?wait=true',
        json(api.keys.first, { as_of: '2026-03-01T00:00:00Z' }),
      )
      expect(run.status).toBe(200)
      const body = await run.json()
      expect(body).toMatchObject({ success: true, tenant_id: api.tenants.first, job_type: 'all' })
      const compression = body.results.find(
        (result: { job_type: string }) => result.job_type === 'handoff_compression',
      )
      expect(compression.items_affected).toBeGreaterThanOrEqual(12)
      expect(Number.isInteger(compression.tokens_saved)).toBe(true)

      // The principle it made is the first tenant's alone.
      const principles = await (await send('/api/v1/principles', get(api.keys.first))).json()
      expect(principles.count).toBeGreaterThanOrEqual(1)
      const principle = principles.decisions[0]
      expect(principle).toMatchObject({ kind: 'principle', scope: 'global', status: 'active' })
      expect(principle.sources.length).toBeGreaterThanOrEqual(10)
      const own = await send(`/api/v1/decisions/${principle.decision_id}`, get(api.keys.first))
      expect(own.status).toBe(200)
      const stolen = await send(`/api/v1/decisions/${principle.decision_id}`, get(api.keys.second))
      expect(stolen.status).toBe(404)
      const theirs = await (await send('/api/v1/principles', get(api.keys.second))).json()
      expect(theirs.count).toBe(0)
      const theirStats = await (
        await send('/api/v1/consolidation/stats', get(api.keys.second))
      ).json()
      expect(theirStats).toMatchObject({
        tenant_id: api.tenants.second,
        stats: [],
        total_tokens_saved: 0,
      })
      expect(body.results.map((result: { job_type: string }) => result.job_type)).toEqual(
        expect.arrayContaining([
          'identity_consolidation',
          'handoff_compression',
          'decision_archival',
        ]),
      )
      const jobs = await (
        await send('/api/v1/consolidation/jobs?status=completed&limit=10', get(api.keys.first))
      ).json()
      expect(jobs.count).toBeGreaterThanOrEqual(3)
      expect(jobs.jobs.every((job: { status: string }) => job.status === 'completed')).toBe(true)
      const otherJobs = await (
        await send('/api/v1/consolidation/jobs', get(api.keys.second))
      ).json()
      expect(otherJobs.count).toBe(0)
      const stats = await (await send('/api/v1/consolidation/stats', get(api.keys.first))).json()
      expect(stats).toMatchObject({ success: true, tenant_id: api.tenants.first })
      expect(typeof stats.total_tokens_saved).toBe('number')
    })

    it('answers with the shapes /openapi.json promises', async () => {
      const key = api.keys.first
      const created = await (
        await send('/api/v1/handoffs', json(key, handoffBody('s-shape')))
      ).json()
      HandoffResponseSchema.parse(created)
      HandoffResponseSchema.parse(
        await (await send(`/api/v1/handoffs/${created.handoff.handoff_id}`, get(key))).json(),
      )
      HandoffPageSchema.parse(await (await send('/api/v1/handoffs?limit=3', get(key))).json())
      const decision = await (
        await send('/api/v1/decisions', json(key, { decision: 'Shapes are promises' }))
      ).json()
      DecisionResponseSchema.parse(decision)
      DecisionPageSchema.parse(await (await send('/api/v1/decisions', get(key))).json())
      DecisionPageSchema.parse(await (await send('/api/v1/principles', get(key))).json())
      const queued = await send(
        '/api/v1/consolidation/run',
        json(key, { job_type: 'decision_archival' }),
      )
      expect(queued.status).toBe(202)
      const { jobs } = QueuedResponseSchema.parse(await queued.json())
      JobResponseSchema.parse(
        await (await send(`/api/v1/consolidation/jobs/${jobs[0]?.job_id}`, get(key))).json(),
      )
      RunResponseSchema.parse(
        await (
          await send(
            '/api/v1/consolidation/run?wait=true',
            json(key, { job_type: 'decision_archival' }),
          )
        ).json(),
      )
      StatsResponseSchema.parse(await (await send('/api/v1/consolidation/stats', get(key))).json())
      JobsResponseSchema.parse(await (await send('/api/v1/consolidation/jobs', get(key))).json())
      ErrorResponseSchema.parse(await (await send('/api/v1/handoffs', get(null))).json())
      // Every reference in the document names a component it defines.
      const document = await (await send('/openapi.json')).json()
      const references = [
        ...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g),
      ]
      expect(references.length).toBeGreaterThan(20)
      for (const [, name] of references)
        expect(document.components.schemas).toHaveProperty(name as string)
    })

    errorCases(() => api, send)
  })
}
