/** The mind routes without auth (loopback only, `tenant_id` naming the tenant), creatures in memory. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import { tenantMinds } from '../../src/surfaces/http/tenant-minds.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'

describe('the mind routes without auth (loopback only), creatures in memory', () => {
  let fixture: HttpServiceFixture
  beforeAll(async () => {
    fixture = await openHttpService('pglite', 'in-process')
  })
  afterAll(async () => {
    await fixture?.close()
  })

  it('takes the tenant from tenant_id, as the seed does; an unknown tenant is a 404', async () => {
    const app = createHttpApp({
      service: fixture.service,
      auth: { required: false },
      version: 't',
      minds: tenantMinds({ folder: null }),
    })
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
})
