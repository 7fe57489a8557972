/**
 * A ServiceApi kept in arrays, for testing the HTTP surface's own behaviour (auth, errors,
 * paging, shapes) apart from any database. The database-backed API is tested in test/http-*.
 */
import type {
  Decision,
  Handoff,
  Job,
  Page,
  ServiceApi,
  Stat,
} from '../../src/surfaces/http/service-api.ts'

/** The arrays behind the fake, for a test to look into. */
export interface MemoryServiceState {
  keys: Map<string, string>
  tenants: Set<string>
  handoffs: Handoff[]
  decisions: Decision[]
  jobs: Array<Job & { tenant_id: string }>
  stats: Array<Stat & { tenant_id: string }>
}

function page<Item>(items: Item[], limit: number, cursor: string | undefined): Page<Item> {
  const start = cursor === undefined ? 0 : Number(cursor)
  const slice = items.slice(start, start + limit)
  const next = start + limit < items.length ? String(start + limit) : null
  return { items: slice, next_cursor: next }
}

/** A fresh fake with tenants `default`, `acme` and `globex` and a key for each (`key-<tenant>`). */
export function memoryServiceApi(): { service: ServiceApi; state: MemoryServiceState } {
  const state: MemoryServiceState = {
    keys: new Map([
      ['key-default', 'default'],
      ['key-acme', 'acme'],
      ['key-globex', 'globex'],
    ]),
    tenants: new Set(['default', 'acme', 'globex']),
    handoffs: [],
    decisions: [],
    jobs: [],
    stats: [],
  }
  let counter = 0
  const nextId = (prefix: string) => `${prefix}_${(++counter).toString(16).padStart(8, '0')}`
  const service: ServiceApi = {
    tenantForKey: async (key) => state.keys.get(key) ?? null,
    tenantExists: async (tenantId) => state.tenants.has(tenantId),
    createHandoff: async (tenantId, input) => {
      const handoff: Handoff = {
        handoff_id: nextId('ho'),
        tenant_id: tenantId,
        session_id: input.session_id,
        with_whom: input.with_whom ?? null,
        experienced: input.experienced ?? null,
        noticed: input.noticed ?? null,
        learned: input.learned ?? null,
        story: input.story ?? null,
        becoming: input.becoming ?? null,
        remember: input.remember ?? null,
        significance: input.significance ?? 0.5,
        tags: input.tags ?? [],
        created_at: new Date(input.created_at ?? Date.now()).toISOString(),
        compression_level: 'full',
        summary: null,
        quick_ref: null,
        integrated_into: null,
        consolidated_at: null,
        parent_handoff_id: input.parent_handoff_id ?? null,
      }
      state.handoffs.unshift(handoff)
      return handoff
    },
    listHandoffs: async (tenantId, request) =>
      page(
        state.handoffs.filter((handoff) => handoff.tenant_id === tenantId),
        request.limit,
        request.cursor,
      ),
    getHandoff: async (tenantId, id) =>
      state.handoffs.find(
        (handoff) => handoff.tenant_id === tenantId && handoff.handoff_id === id,
      ) ?? null,
    createDecision: async (tenantId, input) => {
      const decision: Decision = {
        decision_id: nextId('dc'),
        tenant_id: tenantId,
        decision: input.decision,
        rationale: input.rationale ?? null,
        status: 'active',
        scope: input.scope ?? 'project',
        sources: [],
        created_at: new Date(input.created_at ?? Date.now()).toISOString(),
        updated_at: null,
      }
      state.decisions.unshift(decision)
      return decision
    },
    listDecisions: async (tenantId, request) =>
      page(
        state.decisions.filter(
          (decision) =>
            decision.tenant_id === tenantId &&
            (request.status === undefined || decision.status === request.status),
        ),
        request.limit,
        request.cursor,
      ),
    getDecision: async (tenantId, id) =>
      state.decisions.find(
        (decision) => decision.tenant_id === tenantId && decision.decision_id === id,
      ) ?? null,
    listPrinciples: async (tenantId, request) =>
      page(
        state.decisions.filter(
          (decision) => decision.tenant_id === tenantId && decision.scope === 'global',
        ),
        request.limit,
        request.cursor,
      ),
    runConsolidation: async (tenantId, jobType) => {
      const types =
        jobType === 'all'
          ? ['identity_consolidation', 'handoff_compression', 'decision_archival']
          : [jobType]
      return types.map((type) => {
        state.jobs.unshift({
          tenant_id: tenantId,
          job_id: nextId('cj'),
          job_type: type,
          status: 'completed',
          started_at: new Date().toISOString(),
          completed_at: new Date().toISOString(),
          items_processed: 0,
          items_affected: 0,
          error_message: null,
          metadata: {},
        })
        return {
          job_type: type,
          items_processed: 0,
          items_affected: 0,
          tokens_saved: 0,
          details: {},
        }
      })
    },
    listStats: async (tenantId) =>
      state.stats
        .filter((stat) => stat.tenant_id === tenantId)
        .map(({ tenant_id, ...stat }) => stat),
    listJobs: async (tenantId, filter) =>
      state.jobs
        .filter(
          (job) =>
            job.tenant_id === tenantId &&
            (filter.status === undefined || job.status === filter.status),
        )
        .slice(0, filter.limit)
        .map(({ tenant_id, ...job }) => job),
    checkHealth: async () => {},
  }
  return { service, state }
}
