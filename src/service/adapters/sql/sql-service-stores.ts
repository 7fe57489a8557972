/** Every service store over one SQL database, with transactions that span them. */
import type { Kysely } from 'kysely'
import type { ServiceStores } from '../../ports/service-stores.ts'
import type { ServiceDatabase } from './database-schema.ts'
import {
  type DatabaseLocation,
  type OpenDatabase,
  openServiceDatabase,
} from './open-service-database.ts'
import { sqlDecisionStore } from './sql-decision-store.ts'
import { sqlHandoffStore } from './sql-handoff-store.ts'
import { sqlJobStore } from './sql-job-store.ts'
import { sqlStatsStore } from './sql-stats-store.ts'
import { sqlTenantStore } from './sql-tenant-store.ts'

/** The stores over `db`; `close` closes whatever `db` came from. */
export function sqlServiceStores(
  db: Kysely<ServiceDatabase>,
  close: () => Promise<void> = async () => {},
): ServiceStores {
  const stores: ServiceStores = {
    handoffs: sqlHandoffStore(db),
    decisions: sqlDecisionStore(db),
    jobs: sqlJobStore(db),
    stats: sqlStatsStore(db),
    tenants: sqlTenantStore(db),
    // A nested transaction runs inside the outer one (Kysely has no nested BEGIN).
    transaction: (work) =>
      db.isTransaction
        ? work(stores)
        : db.transaction().execute((transaction) => work(sqlServiceStores(transaction))),
    close,
  }
  return stores
}

/** Opens (and migrates) the database at `location` and returns its stores and description. */
export async function openSqlServiceStores(
  location: DatabaseLocation,
): Promise<{ stores: ServiceStores; database: OpenDatabase }> {
  const database = await openServiceDatabase(location)
  return { stores: sqlServiceStores(database.db, database.close), database }
}
