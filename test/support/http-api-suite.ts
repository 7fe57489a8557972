/**
 * The HTTP API's behaviour, written once and run on every backing (the in-memory fake, PGlite,
 * PostgreSQL) and over every transport (app.request in-process, fetch over a real socket).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorResponseSchema } from '../../src/surfaces/http/schemas/common-schemas.ts'
import {
  JobsResponseSchema,
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
import type { ServiceApi } from '../../src/surfaces/http/service-api.ts'

/** Sends one request: in-process or over a socket, the suite does not care. */
export type Send = (path: string, init?: RequestInit) => Promise<Response>

/** A response whose JSON the suite reads field by field. */
interface Answer {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: the tests read fields of JSON answers they check
  json(): Promise<any>
}

/** What a backing gives the suite: a way to send, and keys of two tenants. */
export interface ApiFixture {
  send: Send
  /** Two tenants' keys: the suite checks that neither sees the other. */
  keys: { first: string; second: string }
  tenants: { first: string; second: string }
  /** Makes a key unusable, as `somnus tenant keys revoke` does. */
  revoke(key: string): Promise<void>
  service: ServiceApi
  close(): Promise<void>
}

const json = (key: string | null, body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: {
    'content-type': 'application/json',
    ...(key === null ? {} : { authorization: `Bearer ${key}` }),
  },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
const get = (key: string | null): RequestInit => ({
  headers: key === null ? {} : { authorization: `Bearer ${key}` },
})

/** A handoff body with every text field. */
export function handoffBody(session: string, overrides: Record<string, unknown> = {}) {
  return {
    session_id: session,
    with_whom: 'Dana',
    experienced: `Session ${session}: moved the ingest path to batched inserts.`,
    noticed: 'p99 dropped once the pool stopped starving.',
    learned: 'Measure before tuning.',
    story: 'We chased a slow endpoint to a single-row insert loop.',
    becoming: 'someone who measures before changing code',
    remember: 'The pool size matters more than the query.',
    significance: 0.7,
    tags: ['perf', 'sql'],
    ...overrides,
  }
}

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
      // Twelve old sessions that keep saying the same thing: enough for a principle (10).
      for (let index = 0; index < 12; index++) {
        const body = handoffBody(`s-old-${index}`, {
          created_at: new Date(Date.UTC(2025, 5, 1 + index)).toISOString(),
          becoming: `someone who measures the slow path before changing any code (week ${index})`,
        })
        expect((await send('/api/v1/handoffs', json(api.keys.first, body))).status).toBe(201)
      }
      const run = await send(
        '/api/v1/consolidation/run',
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
      RunResponseSchema.parse(
        await (
          await send('/api/v1/consolidation/run', json(key, { job_type: 'decision_archival' }))
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

    it('answers 400 naming the field for every kind of bad input, never 500', async () => {
      const key = api.keys.first
      const cases: Array<[string, RequestInit, string]> = [
        ['/api/v1/consolidation/run', json(key, { job_type: 'defragment' }), 'job_type'],
        ['/api/v1/consolidation/run', json(key, '{"job_type": "all"'), 'body'],
        ['/api/v1/consolidation/run', json(key, { job_type: 7 }), 'job_type'],
        ['/api/v1/consolidation/run', json(key, { as_of: 'last tuesday' }), 'as_of'],
        ['/api/v1/consolidation/jobs?limit=-1', get(key), 'limit'],
        ['/api/v1/consolidation/jobs?limit=ten', get(key), 'limit'],
        ['/api/v1/consolidation/jobs?status=sleeping', get(key), 'status'],
        ['/api/v1/handoffs?limit=0', get(key), 'limit'],
        ['/api/v1/handoffs', json(key, { session_id: 42 }), 'session_id'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { significance: 'high' })), 'significance'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { significance: 3 })), 'significance'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { tags: 'perf' })), 'tags'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { created_at: 'soon' })), 'created_at'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { mood: 'good' })), 'mood'],
        ['/api/v1/handoffs', json(key, '[1, 2'), 'body'],
        ['/api/v1/handoffs', json(key, '"just a string"'), 'body'],
        ['/api/v1/decisions', json(key, { decision: '' }), 'decision'],
        ['/api/v1/decisions?status=maybe', get(key), 'status'],
      ]
      for (const [path, init, field] of cases) {
        const response = await send(path, init)
        const body = await response.json()
        expect(response.status, `${path} ${String(init.body)}`).toBe(400)
        expect(body.error.field, `${path} ${String(init.body)}`).toBe(field)
        expect(body.error.message).toContain(field)
      }
      const unknownType = await (
        await send('/api/v1/consolidation/run', json(key, { job_type: 'defragment' }))
      ).json()
      expect(unknownType.error.valid_values).toContain('handoff_compression')
    })

    it('refuses a taken handoff_id and another tenant’s parent with 400 naming the field', async () => {
      const first = api.keys.first
      const body = handoffBody('s-dup', { handoff_id: 'client-chosen-id-1' })
      expect((await send('/api/v1/handoffs', json(first, body))).status).toBe(201)
      const again = await send('/api/v1/handoffs', json(first, body))
      expect(again.status).toBe(400)
      expect((await again.json()).error.field).toBe('handoff_id')
      // The second tenant cannot hang its handoff under the first tenant's, nor learn it exists.
      const foreign = await send(
        '/api/v1/handoffs',
        json(api.keys.second, handoffBody('s-child', { parent_handoff_id: 'client-chosen-id-1' })),
      )
      const missing = await send(
        '/api/v1/handoffs',
        json(api.keys.second, handoffBody('s-child', { parent_handoff_id: 'no-such-handoff' })),
      )
      expect(foreign.status).toBe(400)
      expect(missing.status).toBe(400)
      const foreignError = (await foreign.json()).error
      const missingError = (await missing.json()).error
      expect(foreignError.field).toBe('parent_handoff_id')
      // Word for word the answer for an id that exists nowhere.
      expect(foreignError.message.replace('client-chosen-id-1', 'X')).toBe(
        missingError.message.replace('no-such-handoff', 'X'),
      )
      const child = await send(
        '/api/v1/handoffs',
        json(first, handoffBody('s-child', { parent_handoff_id: 'client-chosen-id-1' })),
      )
      expect(child.status).toBe(201)
    })

    it('answers 413 for an oversized body and 415 for one that is not JSON', async () => {
      const huge = handoffBody('s-huge', { story: 'x'.repeat(2 * 1024 * 1024) })
      const tooLarge = await send('/api/v1/handoffs', json(api.keys.first, huge))
      expect(tooLarge.status).toBe(413)
      expect((await tooLarge.json()).error.field).toBe('body')
      const notJson = await send('/api/v1/handoffs', {
        method: 'POST',
        headers: { authorization: `Bearer ${api.keys.first}`, 'content-type': 'text/plain' },
        body: 'session_id=s',
      })
      expect(notJson.status).toBe(415)
    })

    it('answers 404 for an unknown id and an unknown route', async () => {
      const missing = await send('/api/v1/handoffs/ho_missing', get(api.keys.first))
      expect(missing.status).toBe(404)
      expect((await missing.json()).error.field).toBe('handoff_id')
      expect((await send('/api/v1/nothing', get(api.keys.first))).status).toBe(404)
    })

    it('stops accepting a key once it is revoked', async () => {
      const key = api.keys.second
      expect((await send('/api/v1/consolidation/jobs', get(key))).status).toBe(200)
      await api.revoke(key)
      expect((await send('/api/v1/consolidation/jobs', get(key))).status).toBe(401)
    })
  })
}
