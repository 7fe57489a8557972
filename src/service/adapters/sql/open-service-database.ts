/**
 * Opens the service database, one code path for both engines: embedded PGlite in a data folder (the
 * default; or in memory) or PostgreSQL through `pg`, optionally inside one schema. Migrations run
 * on open (Kysely's migrator takes a lock, so several processes starting at once are safe).
 */
import { mkdirSync } from 'node:fs'
import { Kysely, type LogEvent, Migrator, PostgresDialect, sql } from 'kysely'
import { type HeldLock, takeLock } from '../../../engine/adapters/fs/fs-lock.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { ServiceDatabase } from './database-schema.ts'
import { MIGRATIONS } from './migrations/index.ts'

/** Where the database is. */
export type DatabaseLocation =
  /** Embedded PGlite in `dataDir` (created if missing), or in memory when `dataDir` is null. */
  | { kind: 'pglite'; dataDir: string | null }
  /** PostgreSQL at `url`; `schema` (created if missing) holds the tables instead of `public`. */
  | { kind: 'postgres'; url: string; schema?: string | undefined }

/** An open database. */
export interface OpenDatabase {
  db: Kysely<ServiceDatabase>
  /** `PGlite in /path`, `PGlite in memory` or `PostgreSQL at host:port/db`, for a start-up line. */
  description: string
  engine: 'pglite' | 'postgres'
  /** When a statement last succeeded (ms since the epoch), or null before the first: `/health`. */
  lastAnswerAt(): number | null
  close(): Promise<void>
}

/** Kysely's log hook, recording when a statement last succeeded. */
function answerTracker(): { log: (event: LogEvent) => void; lastAnswerAt: () => number | null } {
  let last: number | null = null
  return {
    log: (event) => {
      if (event.level === 'query') last = Date.now()
    },
    lastAnswerAt: () => last,
  }
}

/**
 * Reads `--db` / SOMNUS_DATABASE_URL: a postgres:// URL (`?schema=name` keeps the tables in that
 * schema), else a PGlite folder (`:memory:` for a throwaway one).
 */
export function parseDatabaseLocation(value: string): DatabaseLocation {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    const url = new URL(value)
    const schema = url.searchParams.get('schema') ?? undefined
    url.searchParams.delete('schema')
    return { kind: 'postgres', url: url.toString(), schema }
  }
  if (value === ':memory:' || value === 'memory://') return { kind: 'pglite', dataDir: null }
  return { kind: 'pglite', dataDir: value.replace(/^file:\/\//i, '') }
}

/** Opens and migrates the database at `location`. */
export async function openServiceDatabase(location: DatabaseLocation): Promise<OpenDatabase> {
  const opened =
    location.kind === 'pglite' ? await openPglite(location.dataDir) : await openPostgres(location)
  try {
    await migrateToLatest(opened.db, location.kind === 'postgres' ? location.schema : undefined)
  } catch (error) {
    await opened.close()
    throw error
  }
  return opened
}

/**
 * Runs every migration not yet applied. The migration table's schema is named outright: Kysely
 * looks for it in every schema, and one in another schema would hide that this one has none.
 */
export async function migrateToLatest(
  db: Kysely<ServiceDatabase>,
  schema: string | undefined,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableSchema: schema ?? 'public',
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName
    throw new SomnusError(
      'ENVIRONMENT',
      `Database migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}. Check the database is reachable and writable, or point --db at a fresh one.`,
      { cause: error },
    )
  }
}

async function openPglite(dataDir: string | null): Promise<OpenDatabase> {
  // One process per data folder: PGlite is one embedded server, and two on one folder corrupt it.
  let lock: HeldLock | undefined
  if (dataDir !== null) {
    mkdirSync(dataDir, { recursive: true })
    try {
      lock = takeLock({
        path: `${dataDir.replace(/\/+$/, '')}.lock`,
        staleMs: 10_000,
        updateMs: 2_000,
        onCompromised: () => {},
      })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      throw new SomnusError(
        'DATABASE_BUSY',
        `Another Somnus process has the embedded database in ${dataDir} open. Stop it, or run several processes on PostgreSQL (--db postgres://… or SOMNUS_DATABASE_URL).`,
      )
    }
  }
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ])
  const pglite = new PGlite(dataDir ?? undefined)
  await pglite.waitReady
  const answers = answerTracker()
  const db = new Kysely<ServiceDatabase>({ dialect: new PGliteDialect(pglite), log: answers.log })
  return {
    db,
    lastAnswerAt: answers.lastAnswerAt,
    description: dataDir === null ? 'PGlite in memory' : `PGlite in ${dataDir}`,
    engine: 'pglite',
    close: async () => {
      await db.destroy()
      lock?.release()
    },
  }
}

async function openPostgres(location: {
  url: string
  schema?: string | undefined
}): Promise<OpenDatabase> {
  const { default: pg } = await import('pg')
  const schema = location.schema
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new SomnusError(
      'USAGE',
      `Schema name ${schema} is invalid: use lowercase letters, digits and _.`,
    )
  }
  const pool = new pg.Pool({
    connectionString: location.url,
    max: 4,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  const answers = answerTracker()
  const db = new Kysely<ServiceDatabase>({
    dialect: new PostgresDialect({ pool }),
    log: answers.log,
  })
  try {
    if (schema) await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${schema}`).execute(db)
    else await sql`SELECT 1`.execute(db)
  } catch (error) {
    await db.destroy()
    throw new SomnusError(
      'ENVIRONMENT',
      `Cannot reach PostgreSQL at ${redactUrl(location.url)}: ${(error as Error).message}. Check the URL, that the server runs and accepts this user.`,
      { cause: error },
    )
  }
  return {
    db,
    description: `PostgreSQL at ${redactUrl(location.url)}${schema ? ` (schema ${schema})` : ''}`,
    engine: 'postgres',
    lastAnswerAt: answers.lastAnswerAt,
    close: () => db.destroy(),
  }
}

/** The URL without its password, fit for a log line. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return 'postgres://…'
  }
}
