/** The mind routes without auth (loopback only, `tenant_id` naming the tenant), creatures in memory. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import { tenantMinds } from '../../src/surfaces/http/tenant-minds.ts'
import { sentToLocalhost } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'

describe('the mind routes without auth (loopback only), creatures in memory', () => {
  let fixture: HttpServiceFixture
  beforeAll(async () => {
    fixture = await openHttpService('pglite', 'in-process')
  })
  afterAll(async () => {
    await fixture?.close()
  })

  /** A fresh keyless app addressed to localhost, its creatures in memory. */
  const noAuthApp = () =>
    sentToLocalhost(
      createHttpApp({
        service: fixture.service,
        auth: { required: false },
        version: 't',
        minds: tenantMinds({ folder: null }),
      }),
    )

  it('takes the tenant from tenant_id, as the seed does; an unknown tenant is a 404', async () => {
    const app = noAuthApp()
    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const logged = await post('/api/v1/mind/events?tenant_id=globex', {
      events: [{ type: 'action', tool: 'bash', content: 'ls -> a b' }],
    })
    expect(await logged.json()).toMatchObject({ tenant_id: 'globex', actions: 1 })
    const status = await app.request('/api/v1/mind/status?tenant_id=globex')
    expect(await status.json()).toMatchObject({ location: 'memory', actions: 1 })
    const acme = await app.request('/api/v1/mind/status?tenant_id=acme')
    expect(await acme.json()).toMatchObject({ tenant_id: 'acme', actions: 0 })
    const nobody = await post('/api/v1/mind/events?tenant_id=nobody', {
      events: [{ type: 'action', tool: 'bash', content: 'ls' }],
    })
    expect(nobody.status).toBe(404)
    const bad = await app.request('/api/v1/mind/status?tenant_id=Bad%20Id')
    expect(bad.status).toBe(404)
  })

  it('refuses what a page of another site sends (no preflight for a text/plain POST)', async () => {
    const app = noAuthApp()
    const fromPage = (origin: string) =>
      app.request('/api/v1/mind/wake?tenant_id=globex', {
        method: 'POST',
        headers: { origin, 'content-type': 'text/plain' },
      })
    for (const origin of [
      'https://attacker.example',
      'null',
      'http://127.0.0.1.attacker.example',
    ]) {
      const answer = await fromPage(origin)
      expect(answer.status, origin).toBe(403)
      expect(await answer.json()).toMatchObject({ error: { code: 'FORBIDDEN_ORIGIN' } })
    }
    expect((await fromPage('http://localhost:3456')).status).not.toBe(403)
    expect((await fromPage('http://[::1]:3456')).status).not.toBe(403)
  })
})
