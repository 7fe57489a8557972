import { describe, expect, it } from 'vitest'
import { describeHttpApi } from '../../../test/support/http-api-suite.ts'
import { memoryServiceApi } from '../../../test/support/memory-service-api.ts'
import { createHttpApp } from './create-http-app.ts'

describeHttpApi('HTTP API in-process on the in-memory service', async () => {
  const { service, state } = memoryServiceApi()
  const app = createHttpApp({
    service,
    auth: { required: true, cacheMilliseconds: 0 },
    version: 't',
  })
  return {
    send: async (path, init) => app.request(path, init),
    keys: { first: 'key-acme', second: 'key-globex' },
    tenants: { first: 'acme', second: 'globex' },
    revoke: async (key) => {
      state.keys.delete(key)
    },
    service,
    close: async () => {},
  }
})

describe('HTTP API without auth (loopback only)', () => {
  const { service } = memoryServiceApi()
  const app = createHttpApp({ service, auth: { required: false }, version: 't' })

  it("serves the seed's requests without a key, tenant_id naming the tenant", async () => {
    const run = await app.request('/api/v1/consolidation/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: 'default', job_type: 'handoff_compression' }),
    })
    expect(run.status).toBe(200)
    expect(await run.json()).toMatchObject({
      tenant_id: 'default',
      job_type: 'handoff_compression',
    })
    const stats = await app.request('/api/v1/consolidation/stats?tenant_id=acme')
    expect(await stats.json()).toMatchObject({ tenant_id: 'acme' })
    expect((await app.request('/api/v1/consolidation/jobs?tenant_id=nobody')).status).toBe(404)
  })
})

describe('API key cache', () => {
  it('trusts a verified key for the cache time, then asks again', async () => {
    const { service, state } = memoryServiceApi()
    let now = 0
    const app = createHttpApp({
      service,
      auth: { required: true, cacheMilliseconds: 1000, now: () => now },
      version: 't',
    })
    const send = () =>
      app.request('/api/v1/consolidation/jobs', { headers: { authorization: 'Bearer key-acme' } })
    expect((await send()).status).toBe(200)
    state.keys.delete('key-acme')
    now = 999
    expect((await send()).status).toBe(200)
    now = 1001
    expect((await send()).status).toBe(401)
  })
})

describe('errors the client did not cause', () => {
  it('answers 500 with no internals and logs the stack', async () => {
    const { service } = memoryServiceApi()
    const lines: string[] = []
    const app = createHttpApp({
      service: { ...service, listStats: async () => Promise.reject(new Error('disk on fire')) },
      auth: { required: true },
      version: 't',
      log: (line) => lines.push(line),
    })
    const response = await app.request('/api/v1/consolidation/stats', {
      headers: { authorization: 'Bearer key-acme' },
    })
    expect(response.status).toBe(500)
    expect(JSON.stringify(await response.json())).not.toContain('disk on fire')
    expect(lines.join('')).toContain('disk on fire')
  })
})
