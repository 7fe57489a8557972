/**
 * `/metrics` in Prometheus's text format (prom-client): requests and their latency by route (the
 * route's pattern, never the raw path, so ids cannot blow up the label set), the jobs of every
 * tenant by status, the queue's depth, tokens saved, whether the database answers, and Node's own
 * process metrics (CPU, memory, event-loop delay). Job and token figures are read from the
 * database at each scrape, so every server on one PostgreSQL reports the same; no tenant is named.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { JOB_STATUSES } from '../../service/service-values.ts'
import type { ServiceApi } from './service-api.ts'

/** What the service reports at each scrape. */
export type MetricsSnapshot = Awaited<ReturnType<ServiceApi['metricsSnapshot']>>

/** The metrics of one app: a middleware that measures every request, and the `/metrics` answer. */
export interface HttpMetrics {
  measure: MiddlewareHandler
  respond(c: Context): Promise<Response>
}

/** The pattern of the route that answered (`/api/v1/handoffs/:handoff_id`), or `unmatched`. */
function routeOf(c: Context): string {
  const routes = matchedRoutes(c).filter((route) => route.method !== 'ALL')
  return routes.at(-1)?.path ?? 'unmatched'
}

/** Metrics for an app over `service`, in a registry of their own. */
export function httpMetrics(service: Pick<ServiceApi, 'metricsSnapshot'>): HttpMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'somnus_' })
  const requests = new Counter({
    name: 'somnus_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'somnus_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  })
  const jobs = new Gauge({
    name: 'somnus_jobs',
    help: 'Consolidation jobs of every tenant, by status',
    labelNames: ['status'],
    registers: [registry],
  })
  const queueDepth = new Gauge({
    name: 'somnus_queue_depth',
    help: 'Jobs a worker could take now: pending, or failed with their retry due',
    registers: [registry],
  })
  const tokensSaved = new Gauge({
    name: 'somnus_consolidation_tokens_saved',
    help: 'Tokens saved by consolidation across every tenant, as measured (consolidation_stats)',
    registers: [registry],
  })
  const databaseUp = new Gauge({
    name: 'somnus_database_up',
    help: '1 when the database answered this scrape, else 0',
    registers: [registry],
  })
  return {
    measure: async (c, next) => {
      const started = process.hrtime.bigint()
      try {
        await next()
      } finally {
        const route = routeOf(c)
        const seconds = Number(process.hrtime.bigint() - started) / 1e9
        requests.inc({ method: c.req.method, route, status: String(c.res.status) })
        latency.observe({ method: c.req.method, route }, seconds)
      }
    },
    respond: async (c) => {
      try {
        const snapshot = await service.metricsSnapshot()
        for (const status of JOB_STATUSES) jobs.set({ status }, snapshot.jobs[status] ?? 0)
        queueDepth.set(snapshot.queueDepth)
        tokensSaved.set(snapshot.tokensSaved)
        databaseUp.set(1)
      } catch {
        databaseUp.set(0)
      }
      return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType })
    },
  }
}
