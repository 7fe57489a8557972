/**
 * The consolidation service's HTTP API as a Hono app: the seed's three endpoints, handoffs,
 * decisions, principles, health, `/openapi.json` generated from the same zod schemas the routes
 * validate with, and a docs page. Serve it with start-http-server.ts, or call `app.request()`.
 */
import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { type ApiEnv, type AuthOptions, apiKeyAuth } from './api-key-auth.ts'
import { DOCS_PAGE_HTML } from './docs-page.ts'
import { bodyTooLarge, errorBody, errorResponse, validationFailure } from './http-errors.ts'
import { addConsolidationRoutes } from './routes/consolidation-routes.ts'
import { addDecisionRoutes } from './routes/decision-routes.ts'
import { addHandoffRoutes } from './routes/handoff-routes.ts'
import type { ServiceApi } from './service-api.ts'

/** The largest request body accepted by default: 1 MiB, fifty full handoffs' worth. */
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
}

/** Builds the app. Nothing listens until it is served. */
export function createHttpApp(options: HttpAppOptions): OpenAPIHono<ApiEnv> {
  const { service } = options
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      return result.success ? undefined : validationFailure(c, result.error, result.target)
    },
  })
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
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key from `somnus tenant create` or `somnus tenant keys create`',
  })
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Somnus consolidation API',
      version: options.version,
      description:
        'Handoffs in, progressive compression, principles and stats out (seed 003). Every /api route needs an API key and sees only its tenant.',
    },
    security: [{ apiKey: [] }],
  })

  app.use(
    '/api/*',
    bodyLimit({ maxSize: maxBodyBytes, onError: (c) => bodyTooLarge(c, maxBodyBytes) }),
    apiKeyAuth(service, options.auth),
  )
  addConsolidationRoutes(app, service)
  addHandoffRoutes(app, service)
  addDecisionRoutes(app, service)
  return app
}
