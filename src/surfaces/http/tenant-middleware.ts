/**
 * The tenant a request works in, resolved once per request after its parts are validated, and
 * left on the context as `c.var.tenantId` (and the tenant's creature as `c.var.mind` for the mind
 * routes). With a key, `tenant_id` may only repeat the key's own tenant: another tenant answers
 * 404, as if it did not exist, so a key learns nothing about others. Without auth (loopback only)
 * `tenant_id` names it, `default` when absent.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { SomnusError } from '../../engine/core/errors.ts'
import type { Mind } from '../../mind/create-mind.ts'
import type { AuthVariables } from './api-key-auth.ts'
import type { ServiceApi } from './service-api.ts'
import type { TenantMinds } from './tenant-minds.ts'

/** The environment of a tenant's routes: the auth middleware's variables and the tenant. */
export type TenantEnv = { Variables: AuthVariables & { tenantId: string } }

/** The environment of the mind routes: the tenant and its creature. */
export type MindEnv = { Variables: AuthVariables & { tenantId: string; mind: Mind } }

/**
 * Resolves the request's tenant from the validated `tenant_id` of its query (or, for a route that
 * takes it there, its JSON body) and sets `c.var.tenantId`.
 */
export function tenantMiddleware(
  service: Pick<ServiceApi, 'tenantExists'>,
  from: 'query' | 'json' = 'query',
): MiddlewareHandler<TenantEnv> {
  return async (c, next) => {
    const requested = requestedTenant(c, from)
    c.set('tenantId', await requestTenant(c.get('keyTenant'), service, requested))
    return next()
  }
}

/** Opens the resolved tenant's creature and sets `c.var.mind` (after tenantMiddleware). */
export function mindMiddleware(minds: TenantMinds): MiddlewareHandler<MindEnv> {
  return async (c, next) => {
    c.set('mind', await minds.mindFor(c.get('tenantId')))
    return next()
  }
}

/** The `tenant_id` the validated request part carries, if any. */
function requestedTenant(c: Context, from: 'query' | 'json'): string | undefined {
  // The validators ran first; their output is read untyped here, for every route alike.
  const part = (c.req.valid as (target: string) => unknown)(from) as
    | { tenant_id?: string | undefined }
    | undefined
  return part?.tenant_id
}

/** The tenant a request works in: the key's, or the named one that exists when auth is off. */
async function requestTenant(
  keyTenant: string | null,
  service: Pick<ServiceApi, 'tenantExists'>,
  requested: string | undefined,
): Promise<string> {
  if (keyTenant !== null) {
    if (requested !== undefined && requested !== keyTenant) throw tenantNotFound(requested)
    return keyTenant
  }
  const tenantId = requested ?? 'default'
  if (!(await service.tenantExists(tenantId))) throw tenantNotFound(tenantId)
  return tenantId
}

function tenantNotFound(tenantId: string): SomnusError {
  return new SomnusError(
    'NOT_FOUND',
    `tenant_id: no tenant "${tenantId}" here; leave tenant_id out to use the API key's tenant.`,
    { details: { field: 'tenant_id' } },
  )
}
