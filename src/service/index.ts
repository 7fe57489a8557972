/**
 * The multi-tenant consolidation service (seed 003, docs/design/origins.md) as a library:
 * `somnus/service`. Handoffs, decisions, consolidation jobs, workers and stats on an SQL database:
 * embedded PGlite by default, PostgreSQL for `postgres://` URLs. Everything past the types loads
 * only when called, so nothing that imports this entry (the CLI, the brain's `createSomnus`) pays
 * for SQL code it does not run.
 */
import type { SomnusService, SomnusServiceOptions } from './compose-service.ts'

export {
  type DatabaseHealth,
  HEALTH_PROBE_WAIT_MS,
  HEALTH_RECENT_MS,
} from './app/database-health.ts'
export type { SomnusService, SomnusServiceOptions } from './compose-service.ts'
export type { ConsolidationRunResponse } from './core/consolidation-job.ts'
export type { Handoff, HandoffInput } from './core/handoff.ts'
export type { Page, PageRequest } from './ports/service-stores.ts'

/** Opens the service on its SQL database; loaded only when called. */
export async function createSomnusService(
  options: SomnusServiceOptions = {},
): Promise<SomnusService> {
  return (await import('./compose-service.ts')).composeSomnusService(options)
}

/** Where the service keeps its embedded database unless told otherwise. */
export async function defaultServiceDataDir(
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  return (await import('./compose-service.ts')).defaultServiceDataDir(env)
}
