/**
 * The routes about the server rather than a tenant, none needing a key: `/health` (503 when the
 * database does not answer), `/metrics` (Prometheus), `/openapi.json` and `/docs`. Described as
 * API routes like every other, so the OpenAPI document lists them too.
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { escapeLogText } from '../../../engine/core/log-text.ts'
import { HEALTH_PROBE_WAIT_MS, HEALTH_RECENT_MS } from '../../../service/index.ts'
import type { ApiEnv } from '../api-key-auth.ts'
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
import { DOCS_PAGE_HTML } from '../docs-page.ts'
import type { HttpMetrics } from '../http-metrics.ts'
import { validateParams, validateQuery } from '../route-validators.ts'
import { answerComponent } from '../schemas/api-components.ts'
import type { ServiceApi } from '../service-api.ts'

const HealthSchema = answerComponent(
  z.object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['ok', 'unreachable']),
    database_checked: z
      .enum(['now', 'recently'])
      .optional()
      .meta({
        description: `now: a probe query answered; recently: the probe waited over ${HEALTH_PROBE_WAIT_MS} ms behind other statements (embedded PGlite runs one at a time) and another statement succeeded within the last ${HEALTH_RECENT_MS / 1000} s`,
      }),
    database_answered_ms_ago: z.number().int().nonnegative().optional().meta({
      description: 'Milliseconds since the database last answered (0 when the probe answered)',
    }),
    version: z.string(),
  }),
  'Health',
)

const TAGS = ['server']

const healthRoute: ApiRoute = {
  method: 'get',
  path: '/health',
  tags: TAGS,
  summary: 'Whether the server and its database answer',
  open: true,
  answers: {
    200: {
      description:
        'Up, the database answering: a probe answered, or it waits behind other statements and one of them succeeded moments ago (database_checked says which)',
      schema: HealthSchema,
    },
    503: { description: 'The database does not answer', schema: HealthSchema },
  },
}

const metricsRoute: ApiRoute = {
  method: 'get',
  path: '/metrics',
  tags: TAGS,
  summary: 'Prometheus metrics: requests, latencies, jobs by status, queue depth, tokens saved',
  description:
    'Figures over every tenant (no tenant is named), read from the database at each scrape, and the process’s own (CPU, memory, event-loop delay).',
  open: true,
  answers: {
    200: {
      description: 'The Prometheus text format',
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
    },
  },
}

const openApiRoute: ApiRoute = {
  method: 'get',
  path: '/openapi.json',
  tags: TAGS,
  summary: 'This document (OpenAPI 3.1)',
  open: true,
  answers: { 200: { description: 'The document', contentType: 'application/json' } },
}

const docsRoute: ApiRoute = {
  method: 'get',
  path: '/docs',
  tags: TAGS,
  summary: 'This document as a page',
  open: true,
  answers: { 200: { description: 'An HTML page', contentType: 'text/html; charset=utf-8' } },
}

/** The server routes, for /openapi.json. */
export const SERVER_ROUTES: AnyApiRoute[] = [healthRoute, metricsRoute, openApiRoute, docsRoute]

/** What the server routes serve. */
export interface ServerRoutesOptions {
  service: ServiceApi
  version: string
  metrics: HttpMetrics
  /** The OpenAPI document (made on first request). */
  document: () => Record<string, unknown>
  log?: ((line: string) => void) | undefined
}

/** The server routes, mounted at the root. */
export function serverRoutes(options: ServerRoutesOptions) {
  const { service, version } = options
  return new Hono<ApiEnv>()
    .get('/health', validateParams(healthRoute), validateQuery(healthRoute), async (c) => {
      try {
        const health = await service.checkHealth()
        return c.json({
          status: 'ok',
          database: 'ok',
          database_checked: health.checked,
          database_answered_ms_ago: health.answeredMsAgo,
          version,
        })
      } catch (error) {
        options.log?.(`somnus serve: health check failed: ${escapeLogText(String(error))}\n`)
        return c.json({ status: 'unavailable', database: 'unreachable', version }, 503)
      }
    })
    .get('/metrics', validateParams(metricsRoute), validateQuery(metricsRoute), (c) =>
      options.metrics.respond(c),
    )
    .get('/openapi.json', validateParams(openApiRoute), validateQuery(openApiRoute), (c) =>
      c.json(options.document()),
    )
    .get('/docs', validateParams(docsRoute), validateQuery(docsRoute), (c) =>
      c.html(DOCS_PAGE_HTML),
    )
}
