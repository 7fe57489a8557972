/**
 * Each sub-app names its paths as literals (so the app's type carries them to `hc`), beside the
 * route objects /openapi.json is made from: every described route must be the path a handler
 * answers, with the same method, and no handler may answer a path the document leaves out.
 */
import { describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import type { ServiceApi } from '../../src/surfaces/http/service-api.ts'

describe('route table', () => {
  it('serves exactly the routes /openapi.json describes', async () => {
    const app = createHttpApp({
      service: {} as ServiceApi,
      auth: { required: true },
      version: 't',
      minds: { description: 'memory', mindFor: () => Promise.reject(new Error('unused')) },
    })
    const document = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    const described = Object.entries(document.paths)
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort()
    const served = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== 'ALL')
          .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
      ),
    ].sort()
    expect(served).toEqual(described)
    expect(served.length).toBeGreaterThan(20)
  })
})
