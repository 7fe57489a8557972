/**
 * The HTTP API's use cases on a consolidation service: each one the service's own, with the
 * server's lifecycle added (an ingest to drain on stop, a stop signal for waiting requests).
 */
import type { SomnusService } from '../../brain/create-somnus.ts'
import type { ServiceApi } from './service-api.ts'

/** How the API behaves as its server stops. */
export interface ServiceApiOptions {
  /** Fires when the server stops: requests waiting for jobs (`?wait=true`) answer 503 at once. */
  stopping?: AbortSignal | undefined
}

/** A ServiceApi on `service`, and `drain()` to wait for inserts in flight (before closing). */
export function serviceApiFor(
  service: SomnusService,
  options: ServiceApiOptions = {},
): ServiceApi & { drain(): Promise<void>; lastHandoffWrite(): number } {
  const ingest = service.openHandoffIngest()
  return {
    lastHandoffWrite: () => ingest.lastWriteAt(),
    tenantForKey: (key) => service.tenantForKey(key),
    tenantExists: (tenantId) => service.tenantExists(tenantId),
    createHandoff: (tenantId, input) => ingest.add(tenantId, input),
    listHandoffs: (tenantId, page) => service.listHandoffs(tenantId, page),
    getHandoff: (tenantId, handoffId) => service.getHandoff(tenantId, handoffId),
    deleteHandoff: (tenantId, handoffId) => service.deleteHandoff(tenantId, handoffId),
    searchHandoffs: (tenantId, query) => service.searchHandoffs(tenantId, query),
    createDecision: (tenantId, input) => service.recordDecision(tenantId, input),
    listDecisions: (tenantId, page) => service.listDecisions(tenantId, page),
    getDecision: (tenantId, decisionId) => service.getDecision(tenantId, decisionId),
    deleteDecision: (tenantId, decisionId) => service.deleteDecision(tenantId, decisionId),
    listPrinciples: (tenantId, page) => service.listPrinciples(tenantId, page),
    enqueueConsolidation: (tenantId, jobType, asOf) =>
      service.enqueueConsolidation(tenantId, jobType, asOf),
    awaitConsolidation: (queued, signal) =>
      service.awaitConsolidation(
        queued,
        options.stopping === undefined || signal === undefined
          ? (signal ?? options.stopping)
          : AbortSignal.any([signal, options.stopping]),
      ),
    getJob: (tenantId, jobId) => service.getJob(tenantId, jobId),
    consolidationStats: (tenantId) => service.stats(tenantId),
    consolidationJobs: (tenantId, query) => service.jobs(tenantId, query),
    checkHealth: () => service.checkHealth(),
    metricsSnapshot: () => service.metricsSnapshot(),
    drain: () => ingest.drain(),
  }
}
