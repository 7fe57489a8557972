/**
 * Service databases for tests: embedded PGlite (in memory, one per test file: it takes 2-3.5 s to
 * start) and the project's PostgreSQL at 127.0.0.1:5432 (database `test`), where each test file
 * gets a fresh schema so parallel files never see each other's rows. Tests that need PostgreSQL
 * skip with POSTGRES_SKIP_REASON when it is down.
 */
import pg from 'pg'
import {
  type DatabaseLocation,
  type OpenDatabase,
  openServiceDatabase,
} from '../../src/service/adapters/sql/open-service-database.ts'
import { sqlServiceStores } from '../../src/service/adapters/sql/sql-service-stores.ts'
import type { ServiceStores } from '../../src/service/ports/service-stores.ts'

/** The test PostgreSQL (override with SOMNUS_TEST_POSTGRES_URL). */
export const POSTGRES_URL =
  process.env.SOMNUS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Asked three times: under a full parallel run a busy server can take seconds to accept, and a
 * slow answer must not be taken for an absent server.
 */
async function postgresReachable(): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt += 1) if (await postgresAnswers()) return true
  return false
}

/** True when the test PostgreSQL answers. */
export const HAS_POSTGRES = await postgresReachable()

/** Why PostgreSQL tests were skipped. */
export const POSTGRES_SKIP_REASON = `PostgreSQL not reachable at ${POSTGRES_URL}: start it (user postgres, database test) or set SOMNUS_TEST_POSTGRES_URL to run the PostgreSQL half of the service tests`

// CI has PostgreSQL and must run these tests: there a missing server fails the run, not skips.
if (!HAS_POSTGRES && process.env.CI) throw new Error(POSTGRES_SKIP_REASON)
if (!HAS_POSTGRES && !process.env.SOMNUS_QUIET_SKIPS) {
  process.stderr.write(`[somnus tests] ${POSTGRES_SKIP_REASON}\n`)
}

/** A schema name no other test file uses. */
export function freshSchemaName(label = 'test'): string {
  return `somnus_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
}

/** The engines a suite runs on: PGlite always, PostgreSQL when reachable. */
export const ENGINES = ['pglite', 'postgres'] as const

/** An engine name. */
export type Engine = (typeof ENGINES)[number]

/** True when `engine` can run here. */
export function engineAvailable(engine: Engine): boolean {
  return engine === 'pglite' || HAS_POSTGRES
}

/** A database for one test file and how to drop it. */
export interface TestDatabase {
  database: OpenDatabase
  stores: ServiceStores
  location: DatabaseLocation
  /** Closes it and, on PostgreSQL, drops its schema. */
  dispose(): Promise<void>
}

/** Opens a fresh, migrated database on `engine`. */
export async function openTestDatabase(engine: Engine): Promise<TestDatabase> {
  const schema = freshSchemaName()
  const location: DatabaseLocation =
    engine === 'pglite'
      ? { kind: 'pglite', dataDir: null }
      : { kind: 'postgres', url: POSTGRES_URL, schema }
  const database = await openServiceDatabase(location)
  return {
    database,
    stores: sqlServiceStores(database.db, database.close),
    location,
    dispose: async () => {
      await database.close()
      if (engine === 'postgres') await dropSchema(schema)
    },
  }
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await client.end()
  }
}
