/**
 * API keys per tenant: `Authorization: Bearer <key>` (or `X-API-Key: <key>`) names the tenant
 * every route then works in. Without auth (loopback only, see start-http-server.ts) the seed's
 * `tenant_id` parameter names it, `default` when absent.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { errorBody } from './http-errors.ts'
import type { ServiceApi } from './service-api.ts'

/** What the auth middleware leaves on the context for the routes. */
export interface AuthVariables {
  /** The key's tenant, or null when auth is off. */
  keyTenant: string | null
}

/** The Hono environment of every API route. */
export type ApiEnv = { Variables: AuthVariables }

/** How requests are authenticated. */
export interface AuthOptions {
  /** False serves every tenant without a key: for a loopback address only. */
  required: boolean
  /** How long a verified key is trusted before it is checked again (a revocation waits this long). */
  cacheMilliseconds?: number
  now?: () => number
}

/** What `presentedKey` gives for a request carrying two different keys. */
const TWO_KEYS = Symbol('two different keys')

/**
 * The key a request carries, if any; TWO_KEYS when `Authorization` and `X-API-Key` name different
 * keys (a proxy may add one of them: using either would be a guess which client meant).
 */
function presentedKey(c: Context): string | null | typeof TWO_KEYS {
  const header = c.req.header('authorization')
  const apiKey = c.req.header('x-api-key')?.trim() || null
  if (header !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null
    return apiKey !== null && apiKey !== bearer ? TWO_KEYS : bearer
  }
  return apiKey
}

/** The middleware that turns a key into its tenant, or answers 401. */
export function apiKeyAuth(service: ServiceApi, options: AuthOptions): MiddlewareHandler<ApiEnv> {
  const cacheMilliseconds = options.cacheMilliseconds ?? 5_000
  const now = options.now ?? Date.now
  // At thousands of requests a second a database lookup per request would double the load; a
  // verified key is remembered briefly instead. Unknown keys are never remembered.
  const verified = new Map<string, { tenantId: string; until: number }>()
  return async (c, next) => {
    if (!options.required) {
      c.set('keyTenant', null)
      return next()
    }
    const key = presentedKey(c)
    if (key === null) return unauthorized(c, 'send an API key: Authorization: Bearer <key>')
    if (key === TWO_KEYS)
      return unauthorized(c, 'Authorization and X-API-Key name different keys; send one key')
    const cached = verified.get(key)
    let tenantId = cached !== undefined && cached.until > now() ? cached.tenantId : null
    if (tenantId === null) {
      tenantId = await service.tenantForKey(key)
      if (tenantId === null) {
        verified.delete(key)
        return unauthorized(
          c,
          'the API key is unknown or revoked; make one with somnus tenant keys create',
        )
      }
      if (verified.size > 10_000) verified.clear()
      verified.set(key, { tenantId, until: now() + cacheMilliseconds })
    }
    c.set('keyTenant', tenantId)
    return next()
  }
}

function unauthorized(c: Context, message: string): Response {
  c.header('WWW-Authenticate', 'Bearer realm="somnus"')
  return c.json(errorBody('UNAUTHORIZED', message), 401)
}
