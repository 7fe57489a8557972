/**
 * The HTTP API on a real database for tests: PGlite in memory or PostgreSQL (a fresh schema per
 * file), two tenants with a key each, reached in-process (`app.request`) or over a loopback socket.
 */
import { createSomnusService, type SomnusService } from '../../src/brain/create-somnus.ts'
import { createHttpApp, type HttpAppOptions } from '../../src/surfaces/http/create-http-app.ts'
import { serviceApiFor } from '../../src/surfaces/http/service-api-for.ts'
import { startHttpServer } from '../../src/surfaces/http/start-http-server.ts'
import type { ApiFixture } from './http-api-requests.ts'
import { dropSchema, type Engine, freshSchemaName, POSTGRES_URL } from './service-database.ts'

/** How the suite reaches the app. */
export type Transport = 'in-process' | 'socket'

/** An HTTP fixture plus the service behind it. */
export interface HttpServiceFixture extends ApiFixture {
  /** The server's address over a socket; null in-process. */
  url: string | null
  somnus: SomnusService
}

/** Opens a service on `engine`: the database, migrated, and nothing else; `config` as settings. */
export async function openTestService(
  engine: Engine,
  config?: unknown,
): Promise<{ somnus: SomnusService; dispose(): Promise<void> }> {
  const schema = engine === 'postgres' ? freshSchemaName('http') : undefined
  const somnus = await createSomnusService({
    database: engine === 'postgres' ? POSTGRES_URL : ':memory:',
    schema,
    env: {},
    config,
  })
  return {
    somnus,
    dispose: async () => {
      await somnus.close()
      if (schema !== undefined) await dropSchema(schema)
    },
  }
}

/**
 * Opens a service on `engine`, makes tenants `acme` and `globex`, and serves the API with a
 * worker running queued jobs beside it, as `somnus serve` does.
 */
export async function openHttpService(
  engine: Engine,
  transport: Transport,
  appOptions: Partial<HttpAppOptions> = {},
  config?: unknown,
): Promise<HttpServiceFixture> {
  const { somnus, dispose } = await openTestService(engine, config)
  const first = await somnus.createTenant({ tenantId: 'acme' })
  const second = await somnus.createTenant({ tenantId: 'globex' })
  const service = serviceApiFor(somnus)
  const app = createHttpApp({
    service,
    auth: { required: true, cacheMilliseconds: 0 },
    version: 'test',
    ...appOptions,
  })
  const stopWorker = new AbortController()
  const worker = somnus.work({ signal: stopWorker.signal, pollMs: 50 })
  const server =
    transport === 'socket'
      ? await startHttpServer({ fetch: app.fetch, host: '127.0.0.1', port: 0, authRequired: true })
      : null
  return {
    send: async (path, init) =>
      server === null ? app.request(path, init) : fetch(`${server.url}${path}`, init),
    keys: { first: first.key.key, second: second.key.key },
    tenants: { first: 'acme', second: 'globex' },
    revoke: async (key) => {
      const owner = key === first.key.key ? first : second
      await somnus.revokeApiKey(owner.tenant.tenant_id, owner.key.key_id)
    },
    service,
    url: server?.url ?? null,
    somnus,
    close: async () => {
      await server?.close()
      stopWorker.abort()
      await worker
      await service.drain()
      await dispose()
    },
  }
}
