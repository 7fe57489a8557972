/** The HTTP API's edges on PGlite: without auth, the key cache, server faults, bind addresses. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import { serviceApiFor } from '../../src/surfaces/http/service-api-for.ts'
import { checkBindAddress, startHttpServer } from '../../src/surfaces/http/start-http-server.ts'
import { isLoopbackHost } from '../../src/surfaces/loopback-host.ts'
import { handoffBody, sentToLocalhost } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'

let fixture: HttpServiceFixture
beforeAll(async () => {
  fixture = await openHttpService('pglite', 'in-process')
})
afterAll(async () => {
  await fixture?.close()
})

describe('without auth (loopback only)', () => {
  it("serves the seed's curl requests without a key, tenant_id naming the tenant", async () => {
    const app = sentToLocalhost(
      createHttpApp({ service: fixture.service, auth: { required: false }, version: 't' }),
    )
    const run = await app.request('/api/v1/consolidation/run?wait=true', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 'default', job_type: 'handoff_compression' }),
    })
    expect(run.status).toBe(200)
    expect(await run.json()).toMatchObject({
      success: true,
      tenant_id: 'default',
      job_type: 'handoff_compression',
    })
    const stats = await app.request('/api/v1/consolidation/stats?tenant_id=acme')
    expect(await stats.json()).toMatchObject({ success: true, tenant_id: 'acme' })
    expect((await app.request('/api/v1/consolidation/jobs?tenant_id=nobody')).status).toBe(404)
  })

  it('refuses to bind anything but loopback without auth, before listening', async () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('::1')).toBe(true)
    expect(isLoopbackHost('localhost')).toBe(true)
    expect(isLoopbackHost('0.0.0.0')).toBe(false)
    expect(isLoopbackHost('192.168.1.4')).toBe(false)
    expect(() => checkBindAddress('0.0.0.0', false)).toThrow(/without API keys/)
    expect(() => checkBindAddress('0.0.0.0', true)).not.toThrow()
    await expect(
      startHttpServer({
        fetch: () => new Response(''),
        host: '0.0.0.0',
        port: 0,
        authRequired: false,
      }),
    ).rejects.toThrow(/Refusing to serve 0\.0\.0\.0/)
  })
})

describe('API keys in two headers', () => {
  it('refuses Authorization and X-API-Key naming different keys, rather than using the first', async () => {
    const app = createHttpApp({ service: fixture.service, auth: { required: true }, version: 't' })
    const key = fixture.keys.second
    const send = (headers: Record<string, string>) =>
      app.request('/api/v1/consolidation/jobs', { headers })
    expect((await send({ authorization: `Bearer ${key}`, 'x-api-key': 'smn_other' })).status).toBe(
      401,
    )
    const answer = await send({ authorization: `Bearer ${key}`, 'x-api-key': fixture.keys.first })
    expect(answer.status).toBe(401)
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain(
      'different keys',
    )
    expect((await send({ authorization: `Bearer ${key}`, 'x-api-key': key })).status).toBe(200)
    expect((await send({ 'x-api-key': key })).status).toBe(200)
    expect((await send({ authorization: `Bearer ${key}` })).status).toBe(200)
  })
})

describe('API key cache', () => {
  it('trusts a verified key for the cache time, then asks the database again', async () => {
    let now = 0
    const app = createHttpApp({
      service: fixture.service,
      auth: { required: true, cacheMilliseconds: 1000, now: () => now },
      version: 't',
    })
    const key = fixture.keys.first
    const send = () =>
      app.request('/api/v1/consolidation/jobs', { headers: { authorization: `Bearer ${key}` } })
    expect((await send()).status).toBe(200)
    await fixture.revoke(key)
    now = 999
    expect((await send()).status).toBe(200)
    now = 1001
    expect((await send()).status).toBe(401)
  })
})

describe('faults that are not the client’s', () => {
  it('answers 500 without internals and logs the stack', async () => {
    const lines: string[] = []
    const app = createHttpApp({
      service: {
        ...fixture.service,
        tenantForKey: async () => 'globex',
        consolidationStats: async () => Promise.reject(new Error('disk on fire')),
      },
      auth: { required: true },
      version: 't',
      log: (line) => lines.push(line),
    })
    const response = await app.request('/api/v1/consolidation/stats', {
      headers: { authorization: 'Bearer smn_anything' },
    })
    expect(response.status).toBe(500)
    expect(JSON.stringify(await response.json())).not.toContain('disk on fire')
    expect(lines.join('')).toContain('disk on fire')
  })

  it('answers 503 on /health when the database is gone', async () => {
    const { openTestService } = await import('../support/http-service.ts')
    const { somnus, dispose } = await openTestService('pglite')
    const app = createHttpApp({
      service: serviceApiFor(somnus),
      auth: { required: true },
      version: 't',
      log: () => {},
    })
    expect((await app.request('/health')).status).toBe(200)
    await dispose()
    expect((await app.request('/health')).status).toBe(503)
  })
})

describe('every acknowledged handoff is stored', () => {
  it('stores all of 300 concurrent creates, each readable by the id it was given', async () => {
    const key = fixture.keys.second
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        fixture.send('/api/v1/handoffs', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(handoffBody(`s-burst-${index}`)),
        }),
      ),
    )
    const ids = await Promise.all(
      responses.map(async (response) => {
        expect(response.status).toBe(201)
        return ((await response.json()) as { handoff: { handoff_id: string } }).handoff.handoff_id
      }),
    )
    const stored = new Set<string>()
    let cursor: string | null = null
    do {
      const page = await fixture.somnus.listHandoffs('globex', {
        limit: 500,
        cursor: cursor ?? undefined,
      })
      for (const handoff of page.items) stored.add(handoff.handoff_id)
      cursor = page.next_cursor
    } while (cursor !== null)
    expect(ids.filter((id) => !stored.has(id))).toEqual([])
  })
})
