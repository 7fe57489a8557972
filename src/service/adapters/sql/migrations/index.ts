/** Every migration, in order; a new one is a new file added at the end, never an edit of a shipped one. */
import type { Migration } from 'kysely'
import * as tenantsAndHandoffs from './001-tenants-and-handoffs.ts'
import * as consolidation from './002-consolidation.ts'
import * as decisions from './003-decisions.ts'
import * as tenantScopedIds from './004-tenant-scoped-ids.ts'
import * as jobAttempts from './005-job-attempts.ts'
import * as handoffSearch from './006-handoff-search.ts'
import * as handoffSearchInBackground from './006b-handoff-search-in-background.ts'

/** Migration name → migration; Kysely runs them in name order. */
export const MIGRATIONS: Record<string, Migration> = {
  '001-tenants-and-handoffs': tenantsAndHandoffs,
  '002-consolidation': consolidation,
  '003-decisions': decisions,
  '004-tenant-scoped-ids': tenantScopedIds,
  '005-job-attempts': jobAttempts,
  '006-handoff-search': handoffSearch,
  '006b-handoff-search-in-background': handoffSearchInBackground,
}
