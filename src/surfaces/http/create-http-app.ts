/**
 * The consolidation service's HTTP API as a Hono app: the seed's three endpoints, handoffs,
 * decisions, principles, health, `/openapi.json` generated from the same zod schemas the routes
 * validate with, and a docs page. Serve it with start-http-server.ts, or call `app.request()`.
 */
import { Hono } from 'hono'
import { type ApiEnv, type AuthOptions, apiKeyAuth } from './api-key-auth.ts'
import { limitBody } from './body-limit.ts'
import { DOCS_PAGE_HTML } from './docs-page.ts'
import { bodyTooLarge, errorBody, errorResponse } from './http-errors.ts'
import { openApiDocument } from './openapi-document.ts'
import { addConsolidationRoutes, CONSOLIDATION_ROUTES } from './routes/consolidation-routes.ts'
import { addDecisionRoutes, DECISION_ROUTES } from './routes/decision-routes.ts'
import { addHandoffRoutes, HANDOFF_ROUTES } from './routes/handoff-routes.ts'
import { addMindRoutes, MIND_ROUTES } from './routes/mind-routes.ts'
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

/** Builds the app. Nothing listens until it is served. */
export function createHttpApp(options: HttpAppOptions): Hono<ApiEnv> {
  const { service } = options
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const app = new Hono<ApiEnv>()
  app.onError((error, c) => errorResponse(c, error, options.log))
  app.notFound((c) =>
    c.json(
      errorBody('NOT_FOUND', `No route ${c.req.method} ${c.req.path}; the routes are in /docs.`),
      404,
    ),
  )

  app.get('/health', async (c) => {
    try {
      await service.checkHealth()
      return c.json({ status: 'ok', database: 'ok', version: options.version })
    } catch (error) {
      options.log?.(`somnus serve: health check failed: ${String(error)}\n`)
      return c.json(
        { status: 'unavailable', database: 'unreachable', version: options.version },
        503,
      )
    }
  })
  app.get('/docs', (c) => c.html(DOCS_PAGE_HTML))
  let document: Record<string, unknown> | undefined
  const routes = [...CONSOLIDATION_ROUTES, ...HANDOFF_ROUTES, ...DECISION_ROUTES]
  if (options.minds) routes.push(...MIND_ROUTES)
  app.get('/openapi.json', (c) => {
    document ??= openApiDocument(routes, {
      title: 'Somnus consolidation API',
      version: options.version,
      description:
        'Handoffs in, progressive compression, principles and stats out (seed 003). Every /api route needs an API key and sees only its tenant.',
    })
    return c.json(document)
  })

  app.use(
    '/api/*',
    limitBody(maxBodyBytes, (c) => bodyTooLarge(c, maxBodyBytes)),
    apiKeyAuth(service, options.auth),
  )
  addConsolidationRoutes(app, service)
  addHandoffRoutes(app, service)
  addDecisionRoutes(app, service)
  if (options.minds) addMindRoutes(app, service, options.minds)
  return app
}
