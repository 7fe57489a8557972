/**
 * The consolidation service's HTTP API as a Hono app: the seed's three endpoints, handoffs,
 * decisions, principles, health, metrics, `/openapi.json` generated from the same zod schemas the
 * routes validate with, and a docs page. A method a path does not take is a 405 naming those it
 * does; without keys, only loopback Host names are answered. Serve it with start-http-server.ts,
 * or call `app.request()`.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { isLoopbackHost, isLoopbackHostHeader } from '../loopback-host.ts'
import { type ApiEnv, type AuthOptions, apiKeyAuth } from './api-key-auth.ts'
import type { AnyApiRoute } from './api-route.ts'
import { limitBody } from './body-limit.ts'
import { bodyTooLarge, errorBody, errorResponse } from './http-errors.ts'
import { httpMetrics } from './http-metrics.ts'
import { openApiDocument } from './openapi-document.ts'
import { CONSOLIDATION_ROUTES, consolidationRoutes } from './routes/consolidation-routes.ts'
import { DECISION_ROUTES, decisionRoutes, principleRoutes } from './routes/decision-routes.ts'
import { HANDOFF_ROUTES, handoffRoutes } from './routes/handoff-routes.ts'
import { MIND_ROUTES } from './routes/mind-route-descriptions.ts'
import { mindRoutes } from './routes/mind-routes.ts'
import { SEARCH_ROUTES, searchRoutes } from './routes/search-routes.ts'
import { SERVER_ROUTES, serverRoutes } from './routes/server-routes.ts'
import type { ServiceApi } from './service-api.ts'
import type { TenantMinds } from './tenant-minds.ts'

/** The largest request body accepted by default: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/** What the app serves and how. */
export interface HttpAppOptions {
  service: ServiceApi
  auth: AuthOptions
  /** The version `/openapi.json` reports. */
  version: string
  maxBodyBytes?: number
  /** Where unexpected errors are written (default: standard error). */
  log?: (line: string) => void
  /** Each tenant's creature: serves the `/api/v1/mind` routes when given. */
  minds?: TenantMinds
}

/**
 * Refuses a request whose Host is not a loopback name when the server runs without keys: a page
 * on another site can make a browser send requests to 127.0.0.1 under the site's own name (DNS
 * rebinding), and without keys nothing else would stop it reading every tenant.
 */
const loopbackHostOnly: MiddlewareHandler<ApiEnv> = async (c, next) => {
  // The Host header as sent (a browser always sends one). Without it (HTTP/1.0) the request's URL
  // carries the server's own name, which says nothing of where the client was sent: refused.
  if (!isLoopbackHostHeader(c.req.header('host'))) {
    return c.json(
      errorBody(
        'FORBIDDEN_HOST',
        'Host: this server runs without API keys and answers only requests addressed to a loopback name (localhost, 127.0.0.1, [::1]); serve with keys to reach it by another name.',
        { field: 'Host' },
      ),
      403,
    )
  }
  // Any web page can POST to 127.0.0.1 without a preflight (text/plain or no body: `mind/wake`,
  // `consolidation/run`); the browser names the page in Origin, so a foreign one is refused.
  const origin = c.req.header('origin')
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return c.json(
      errorBody(
        'FORBIDDEN_ORIGIN',
        'Origin: this server runs without API keys and answers no request a page of another site sends; serve with keys to be reached from a web page.',
        { field: 'Origin' },
      ),
      403,
    )
  }
  return next()
}

/** True for an Origin header naming a page served from a loopback name. */
function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname)
  } catch {
    return false
  }
}

/** The methods `path` has a route for (with HEAD beside GET), for a 405's Allow header. */
function allowedMethods(routes: readonly AnyApiRoute[], path: string): string[] {
  const methods = new Set<string>()
  for (const route of routes) {
    const pattern = new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}/?$`)
    if (!pattern.test(path)) continue
    methods.add(route.method.toUpperCase())
    if (route.method === 'get') methods.add('HEAD')
  }
  return [...methods].sort()
}

/** Builds the app. Nothing listens until it is served. */
export function createHttpApp(options: HttpAppOptions) {
  const { service } = options
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const routes = [
    ...SERVER_ROUTES,
    ...CONSOLIDATION_ROUTES,
    ...HANDOFF_ROUTES,
    ...SEARCH_ROUTES,
    ...DECISION_ROUTES,
    ...(options.minds ? MIND_ROUTES : []),
  ]
  const metrics = httpMetrics(service)
  const app = new Hono<ApiEnv>()
  app.onError((error, c) => errorResponse(c, error, options.log))
  app.notFound((c) => {
    const allowed = allowedMethods(routes, c.req.path)
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '))
      return c.json(
        errorBody(
          'METHOD_NOT_ALLOWED',
          `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}.`,
        ),
        405,
      )
    }
    return c.json(
      errorBody('NOT_FOUND', `No route ${c.req.method} ${c.req.path}; the routes are in /docs.`),
      404,
    )
  })
  app.use('*', metrics.measure)
  if (!options.auth.required) app.use('*', loopbackHostOnly)

  let document: Record<string, unknown> | undefined
  const served = app
    .route(
      '/',
      serverRoutes({
        service,
        version: options.version,
        metrics,
        log: options.log,
        document: () =>
          (document ??= openApiDocument(routes, {
            title: 'Somnus consolidation API',
            version: options.version,
            description:
              'Handoffs in, progressive compression, principles and stats out (seed 003). Every /api route needs an API key and sees only its tenant. A route answers 405 (with Allow) to a method it does not take.',
          })),
      }),
    )
    .use(
      '/api/*',
      limitBody(maxBodyBytes, (c) => bodyTooLarge(c, maxBodyBytes)),
      apiKeyAuth(service, options.auth),
    )
    .route('/api/v1/consolidation', consolidationRoutes(service))
    .route('/api/v1/handoffs', handoffRoutes(service))
    .route('/api/v1/search', searchRoutes(service))
    .route('/api/v1/decisions', decisionRoutes(service))
    .route('/api/v1/principles', principleRoutes(service))
  if (options.minds) app.route('/api/v1/mind', mindRoutes(service, options.minds))
  return served
}

/**
 * The app's type, every route's path, input and answers in it (the mind routes, mounted only when
 * creatures are served, aside): what a typed `hc` client (`hono/client`) is made from.
 */
export type SomnusApp = ReturnType<typeof createHttpApp>
