/**
 * What an operator and a tenant expect of the service (issue 22 item 10), on both databases over
 * a real socket: DELETE for handoffs and decisions (another tenant's is a plain 404); /metrics in
 * Prometheus's format; 405 with Allow for a wrong method; under --no-auth, loopback Host names only
 * (DNS rebinding); and an OpenAPI document that a real validator accepts, listing every route.
 */
import { request } from 'node:http'
import { connect } from 'node:net'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import { startHttpServer } from '../../src/surfaces/http/start-http-server.ts'
import { tenantMinds } from '../../src/surfaces/http/tenant-minds.ts'
import { type Answer, get, handoffBody, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import { ENGINES, engineAvailable } from '../support/service-database.ts'

const del = (key: string): RequestInit => ({
  method: 'DELETE',
  headers: { authorization: `Bearer ${key}` },
})

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`operations on ${engine}, over a socket`, () => {
    let api: HttpServiceFixture
    const send = (path: string, init?: RequestInit) => api.send(path, init) as Promise<Answer>
    beforeAll(async () => {
      api = await openHttpService(engine, 'socket')
    })
    afterAll(async () => {
      await api?.close()
    })

    it("deletes handoffs and decisions; another tenant's is a plain 404", async () => {
      const { first, second } = api.keys
      const made = await (
        await send('/api/v1/handoffs', json(first, handoffBody('s-gone', { handoff_id: 'gone' })))
      ).json()
      expect(made.handoff.handoff_id).toBe('gone')
      await send(
        '/api/v1/handoffs',
        json(first, handoffBody('s-child', { handoff_id: 'child', parent_handoff_id: 'gone' })),
      )
      const theirs = await send('/api/v1/handoffs/gone', del(second))
      const nowhere = await send('/api/v1/handoffs/nowhere', del(second))
      expect(theirs.status).toBe(404)
      expect((await theirs.json()).error.message.replace('gone', 'X')).toBe(
        (await nowhere.json()).error.message.replace('nowhere', 'X'),
      )
      expect((await send('/api/v1/handoffs/gone', get(first))).status).toBe(200)

      const deleted = await send('/api/v1/handoffs/gone', del(first))
      expect(deleted.status).toBe(200)
      expect(await deleted.json()).toEqual({
        success: true,
        tenant_id: api.tenants.first,
        deleted: 'gone',
      })
      expect((await send('/api/v1/handoffs/gone', get(first))).status).toBe(404)
      expect((await send('/api/v1/handoffs/gone', del(first))).status).toBe(404)
      // Its child keeps its place, without a parent.
      const child = await (await send('/api/v1/handoffs/child', get(first))).json()
      expect(child.handoff.parent_handoff_id).toBeNull()

      const decision = await (
        await send('/api/v1/decisions', json(first, { decision: 'Forget me' }))
      ).json()
      const id = decision.decision.decision_id
      expect((await send(`/api/v1/decisions/${id}`, del(second))).status).toBe(404)
      expect((await send(`/api/v1/decisions/${id}`, del(first))).status).toBe(200)
      expect((await send(`/api/v1/decisions/${id}`, get(first))).status).toBe(404)
    })

    it('forgets a deleted handoff in the principle made from it; a deleted principle frees its handoffs', async () => {
      const key = api.keys.second
      const statements = Array.from(
        { length: 12 },
        (_, index) => `someone who writes the failing test before the fix (${index})`,
      )
      for (const [index, becoming] of statements.entries()) {
        const body = handoffBody(`s-theme-${index}`, {
          handoff_id: `theme-${index}`,
          becoming,
          created_at: '2026-01-05T00:00:00Z',
        })
        expect((await send('/api/v1/handoffs', json(key, body))).status).toBe(201)
      }
      const run = await send(
        '/api/v1/consolidation/run?wait=true',
        json(key, { job_type: 'identity_consolidation' }),
      )
      expect((await run.json()).results[0].details.principles_created).toBe(1)
      const [principle] = (await (await send('/api/v1/principles', get(key))).json()).decisions
      expect(principle.sources).toContain('theme-3')
      expect(principle.rationale).toContain(`- ${statements[3]}`)

      expect((await send('/api/v1/handoffs/theme-3', del(key))).status).toBe(200)
      const after = (
        await (await send(`/api/v1/decisions/${principle.decision_id}`, get(key))).json()
      ).decision
      expect(after.sources).not.toContain('theme-3')
      expect(after.sources).toHaveLength(11)
      expect(after.rationale).not.toContain(statements[3])
      expect(after.rationale).toContain(statements[4])

      expect((await send(`/api/v1/decisions/${principle.decision_id}`, del(key))).status).toBe(200)
      const freed = await (await send('/api/v1/handoffs/theme-4', get(key))).json()
      expect(freed.handoff.integrated_into).toBeNull()
    })

    it('answers a wrong method with 405 and the methods that path takes', async () => {
      const key = api.keys.first
      const cases: Array<[string, string, string]> = [
        ['PUT', '/api/v1/handoffs', 'GET, HEAD, POST'],
        ['DELETE', '/api/v1/handoffs', 'GET, HEAD, POST'],
        ['PATCH', '/api/v1/decisions/some-id', 'DELETE, GET, HEAD'],
        ['GET', '/api/v1/consolidation/run', 'POST'],
        ['POST', '/health', 'GET, HEAD'],
        ['DELETE', '/metrics', 'GET, HEAD'],
      ]
      for (const [method, path, allow] of cases) {
        const response = await send(path, { method, headers: { authorization: `Bearer ${key}` } })
        expect(response.status, `${method} ${path}`).toBe(405)
        expect(response.headers.get('allow')).toBe(allow)
        expect((await response.json()).error.code).toBe('METHOD_NOT_ALLOWED')
      }
      expect((await send('/api/v1/nothing-here', get(key))).status).toBe(404)
    })

    it('serves /metrics in the Prometheus text format, routes by pattern, jobs and tokens from the database', async () => {
      const key = api.keys.first
      for (let index = 0; index < 3; index += 1) {
        const body = handoffBody(`s-metrics-${index}`, {
          handoff_id: `metrics-${index}`,
          created_at: '2025-01-01T00:00:00Z',
        })
        await send('/api/v1/handoffs', json(key, body))
      }
      await send('/api/v1/handoffs/metrics-0', get(key))
      await send('/api/v1/handoffs/no-such-id', get(key))
      await send(
        '/api/v1/consolidation/run?wait=true',
        json(key, { job_type: 'handoff_compression' }),
      )
      const response = await send('/metrics')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4')
      const text = await (response as unknown as Response).text()
      const value = (line: RegExp) => {
        const match = text.split('\n').find((row) => line.test(row))
        return match === undefined ? undefined : Number(match.split(' ').at(-1))
      }
      expect(
        value(
          /^somnus_http_requests_total\{method="POST",route="\/api\/v1\/handoffs",status="201"\}/,
        ),
      ).toBeGreaterThanOrEqual(3)
      expect(
        value(
          /^somnus_http_requests_total\{method="GET",route="\/api\/v1\/handoffs\/:handoff_id",status="404"\}/,
        ),
      ).toBeGreaterThanOrEqual(1)
      expect(text).toContain('somnus_http_request_duration_seconds_bucket{le="0.005"')
      expect(text).not.toContain('no-such-id')
      expect(text).not.toContain('metrics-0')
      expect(value(/^somnus_jobs\{status="completed"\}/)).toBeGreaterThanOrEqual(1)
      expect(value(/^somnus_queue_depth /)).toBeGreaterThanOrEqual(0)
      expect(value(/^somnus_consolidation_tokens_saved /)).toBeGreaterThan(0)
      expect(value(/^somnus_database_up /)).toBe(1)
      expect(text).toMatch(/^somnus_process_cpu_seconds_total /m)
      // Not a tenant is named.
      expect(text).not.toContain(api.tenants.first)
    })
  })
}

/** A GET with the Host header `host`, over a real socket (fetch cannot set Host). */
function getWithHost(url: string, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url)
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        headers: { host },
      },
      (incoming) => {
        incoming.resume()
        incoming.on('end', () => resolve(incoming.statusCode ?? 0))
      },
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

/**
 * The status of an HTTP/1.0 GET sent with no Host header over a raw socket: Node's server refuses
 * an HTTP/1.1 request without one itself, but lets HTTP/1.0 through.
 */
function getWithoutHost(url: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url)
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.end(`GET ${path} HTTP/1.0\r\n\r\n`)
    })
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)))
    socket.on('error', reject)
  })
}

describe('without API keys: loopback Host names only (DNS rebinding)', () => {
  let api: HttpServiceFixture
  beforeAll(async () => {
    api = await openHttpService('pglite', 'in-process')
  })
  afterAll(async () => {
    await api?.close()
  })

  it('refuses another Host with 403 over a socket, answers loopback names, and checks nothing with keys', async () => {
    for (const required of [false, true]) {
      const app = createHttpApp({ service: api.service, auth: { required }, version: 't' })
      const server = await startHttpServer({
        fetch: app.fetch,
        host: '127.0.0.1',
        port: 0,
        authRequired: required,
      })
      try {
        const port = server.port
        const hostile = ['attacker.example', `attacker.example:${port}`, `192.168.1.4:${port}`]
        const loopback = [
          `127.0.0.1:${port}`,
          `localhost:${port}`,
          'localhost',
          `[::1]:${port}`,
          // Host names are case-insensitive (RFC 9110 4.2.3).
          'LOCALHOST',
          `LocalHost:${port}`,
        ]
        // No Host at all is refused like a foreign one: the name the request was built on is
        // the server's own, which says nothing about where the client was sent.
        expect(await getWithoutHost(server.url, '/api/v1/handoffs?tenant_id=acme')).toBe(
          required ? 401 : 403,
        )
        for (const host of hostile) {
          const status = await getWithHost(server.url, '/api/v1/handoffs?tenant_id=acme', host)
          expect(status, host).toBe(required ? 401 : 403)
          expect(await getWithHost(server.url, '/health', host), host).toBe(required ? 200 : 403)
        }
        for (const host of loopback) {
          const status = await getWithHost(server.url, '/api/v1/handoffs?tenant_id=acme', host)
          expect(status, host).toBe(required ? 401 : 200)
        }
      } finally {
        await server.close()
      }
    }
  })
})

describe('the OpenAPI document', () => {
  let api: HttpServiceFixture
  beforeAll(async () => {
    api = await openHttpService('pglite', 'in-process')
  })
  afterAll(async () => {
    await api?.close()
  })

  it('is valid OpenAPI 3.1 by a real validator, and lists every route with its server answers', async () => {
    const app = createHttpApp({
      service: api.service,
      auth: { required: true },
      version: '1.2.3',
      minds: tenantMinds({ folder: null }),
    })
    const document = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: [] }>>
      components: { securitySchemes: Record<string, Record<string, string>> }
    }
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([])
    expect(result.valid).toBe(true)

    // Every route the app answers is in the document, method by method.
    const routes = app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    )
    expect([...new Set(routes)].sort()).toEqual([...documented].sort())
    for (const required of [
      'delete /api/v1/handoffs/{handoff_id}',
      'delete /api/v1/decisions/{decision_id}',
      'get /api/v1/consolidation/jobs/{job_id}',
      'get /metrics',
      'get /health',
      'post /api/v1/mind/events',
    ]) {
      expect(documented).toContain(required)
    }
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(['500', '503']),
        )
        if (path.startsWith('/api/')) expect(Object.keys(operation.responses)).toContain('401')
        else expect(operation.security).toEqual([])
      }
    }
    expect(Object.keys(document.paths['/api/v1/handoffs']?.post?.responses ?? {})).toContain('413')
    expect(Object.values(document.components.securitySchemes)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
        expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      ]),
    )
  })
})
