/**
 * The service's light entry for surfaces (test/architecture.test.ts ENTRIES): pure core values,
 * schemas and types only, so the CLI and the HTTP surface reach the service's core without its I/O.
 */
export { INSTANT_RANGE_MESSAGE, isStorableInstant, unstorableText } from './core/client-values.ts'
export { levelTokens } from './core/compression-plan.ts'
export {
  type ConsolidationJob,
  ConsolidationJobSchema,
  type ConsolidationJobsResponse,
  ConsolidationJobsResponseSchema,
  type ConsolidationQueuedResponse,
  ConsolidationQueuedResponseSchema,
  ConsolidationRunRequestSchema,
  type ConsolidationRunResponse,
  ConsolidationRunResponseSchema,
  ConsolidationStatSchema,
  type ConsolidationStatsResponse,
  ConsolidationStatsResponseSchema,
  JOB_STATUSES,
  JobResultSchema,
  type JobStatus,
  JobsQuerySchema,
  type RunJobType,
} from './core/consolidation-job.ts'
export {
  type Decision,
  type DecisionInput,
  DecisionInputSchema,
  DecisionSchema,
  type DecisionStatus,
  DecisionStatusSchema,
} from './core/decision.ts'
export {
  type CompressionLevel,
  type Handoff,
  type HandoffInput,
  HandoffInputSchema,
  HandoffSchema,
  parseHandoffInput,
} from './core/handoff.ts'
export {
  DEFAULT_SEARCH_LIMIT,
  type HandoffSearchHit,
  type HandoffSearchQuery,
  MAX_QUERY_CHARS,
  MAX_SEARCH_LIMIT,
  SEARCH_LEVELS,
  type SearchLevel,
  SearchLevelSchema,
} from './core/handoff-search.ts'
export { locomoHandoffs } from './core/locomo-handoffs.ts'
export { TenantIdSchema } from './core/tenant.ts'
