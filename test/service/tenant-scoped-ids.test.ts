/**
 * Ids belong to their tenant (issue 22 item 1), on both databases: the same LoCoMo file imports
 * into two tenants; over a real socket, a tenant that sends another tenant's id gets a fresh create
 * or a plain 404, never "exists"; every id the service makes (CLI, HTTP, jobs, keys) has 64 random
 * bits; and a database made before the change is upgraded in place, its rows kept.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Migrator, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../src/service/adapters/sql/migrations/index.ts'
import {
  type DatabaseLocation,
  migrateToLatest,
} from '../../src/service/adapters/sql/open-service-database.ts'
import { sqlServiceStores } from '../../src/service/adapters/sql/sql-service-stores.ts'
import { type Answer, get, handoffBody, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import {
  dropSchema,
  ENGINES,
  engineAvailable,
  freshSchemaName,
  POSTGRES_URL,
} from '../support/service-database.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../support/shared-data.ts'

/** 64 random bits: 16 lowercase hex digits after the prefix. */
const ID64 = (prefix: string) => new RegExp(`^${prefix}_[0-9a-f]{16}$`)

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`tenant-scoped ids on ${engine}`, () => {
    describe('from the CLI', () => {
      let folder: string
      let db: string
      let schema: string | undefined
      const somnus = (...args: string[]) =>
        runCliCaptured([...args, '--db', db], { cwd: folder, env: { HOME: folder } })

      beforeAll(() => {
        folder = mkdtempSync(join(tmpdir(), 'somnus-ids-'))
        schema = engine === 'postgres' ? freshSchemaName('ids') : undefined
        db = engine === 'postgres' ? `${POSTGRES_URL}?schema=${schema}` : join(folder, 'db')
      })
      afterAll(async () => {
        if (schema !== undefined) await dropSchema(schema)
        rmSync(folder, { recursive: true, force: true })
      })

      it.skipIf(!HAS_SHARED)('imports the same LoCoMo file into two tenants', async () => {
        for (const tenant of ['alpha', 'beta']) {
          const created = await somnus('tenant', 'create', tenant, '--json')
          expect(created.code, created.stderr).toBe(0)
          expect(JSON.parse(created.stdout).key.key_id).toMatch(ID64('key'))
        }
        const file = join(LOCOMO_DIR, '26.json')
        const lists: string[][] = []
        for (const tenant of ['alpha', 'beta']) {
          const imported = await somnus(
            'handoffs',
            'import',
            file,
            '--format',
            'locomo',
            '--tenant',
            tenant,
          )
          expect(imported.code, imported.stderr).toBe(0)
          const listed = await somnus(
            'handoffs',
            'list',
            '--tenant',
            tenant,
            '--limit',
            '1000',
            '--json',
          )
          const items = JSON.parse(listed.stdout).items as Array<{
            handoff_id: string
            tenant_id: string
          }>
          expect(items.length).toBeGreaterThan(10)
          expect(new Set(items.map((item) => item.tenant_id))).toEqual(new Set([tenant]))
          lists.push(items.map((item) => item.handoff_id).sort())
        }
        // The same ids in both tenants: each tenant has its own copy of every session.
        expect(lists[1]).toEqual(lists[0])
      })

      it('makes 64-bit ids for handoffs without one and for jobs', async () => {
        const created = await somnus('tenant', 'create', 'gamma', '--json')
        expect(created.code, created.stderr).toBe(0)
        const lines = ['first', 'second', 'third']
          .map((word) => JSON.stringify({ experienced: `The ${word} session.` }))
          .join('\n')
        const imported = await runCliCaptured(
          ['handoffs', 'import', '--format', 'jsonl', '--tenant', 'gamma', '--db', db],
          { cwd: folder, env: { HOME: folder }, stdin: lines },
        )
        expect(imported.code, imported.stderr).toBe(0)
        const listed = await somnus('handoffs', 'list', '--tenant', 'gamma', '--json')
        const ids = (JSON.parse(listed.stdout).items as Array<{ handoff_id: string }>).map(
          (item) => item.handoff_id,
        )
        expect(ids).toHaveLength(3)
        for (const id of ids) expect(id).toMatch(ID64('ho'))
        const run = await somnus('consolidate', 'run', '--tenant', 'gamma', '--json')
        expect(run.code, run.stderr).toBe(0)
        const jobIds = (JSON.parse(run.stdout).results as Array<{ job_id: string }>).map(
          (result) => result.job_id,
        )
        expect(jobIds).toHaveLength(3)
        for (const id of jobIds) expect(id).toMatch(ID64('cj'))
      })
    })

    describe('over a socket', () => {
      let api: HttpServiceFixture
      const send = (path: string, init?: RequestInit) => api.send(path, init) as Promise<Answer>
      beforeAll(async () => {
        api = await openHttpService(engine, 'socket')
      })
      afterAll(async () => {
        await api?.close()
      })

      it("answers another tenant's id with a fresh create or a plain 404, never 'exists'", async () => {
        const { first, second } = api.keys
        const theirs = await send(
          '/api/v1/handoffs',
          json(second, handoffBody('s-theirs', { handoff_id: 'session-1' })),
        )
        expect(theirs.status).toBe(201)
        // The same id from the other tenant is a new handoff of its own, not a conflict.
        const mine = await send(
          '/api/v1/handoffs',
          json(first, handoffBody('s-mine', { handoff_id: 'session-1' })),
        )
        expect(mine.status).toBe(201)
        const read = async (key: string) =>
          (await (await send('/api/v1/handoffs/session-1', get(key))).json()).handoff
        expect((await read(first)).session_id).toBe('s-mine')
        expect((await read(second)).session_id).toBe('s-theirs')
        // Within one tenant an id is still taken once.
        const again = await send(
          '/api/v1/handoffs',
          json(first, handoffBody('s-again', { handoff_id: 'session-1' })),
        )
        expect(again.status).toBe(400)
        expect((await again.json()).error.field).toBe('handoff_id')

        await send(
          '/api/v1/handoffs',
          json(second, handoffBody('s-only', { handoff_id: 'only-theirs' })),
        )
        const missing = await send('/api/v1/handoffs/only-theirs', get(first))
        const nowhere = await send('/api/v1/handoffs/nowhere-at-all', get(first))
        expect(missing.status).toBe(404)
        expect((await missing.json()).error.message.replace('only-theirs', 'X')).toBe(
          (await nowhere.json()).error.message.replace('nowhere-at-all', 'X'),
        )

        const decision = { decision_id: 'dc-shared', decision: 'Keep the originals' }
        expect((await send('/api/v1/decisions', json(second, decision))).status).toBe(201)
        expect((await send('/api/v1/decisions', json(first, decision))).status).toBe(201)
        expect((await send('/api/v1/decisions/dc-shared', get(first))).status).toBe(200)
      })

      it('gives 64-bit ids to what the API makes', async () => {
        const created = await send('/api/v1/handoffs', json(api.keys.first, handoffBody('s-64')))
        expect((await created.json()).handoff.handoff_id).toMatch(ID64('ho'))
        const decision = await send(
          '/api/v1/decisions',
          json(api.keys.first, { decision: 'Measure first' }),
        )
        expect((await decision.json()).decision.decision_id).toMatch(ID64('dc'))
      })
    })

    it('upgrades a database made before the change, keeping every row', async () => {
      const schema = engine === 'postgres' ? freshSchemaName('upgrade') : undefined
      const location: DatabaseLocation =
        schema === undefined
          ? { kind: 'pglite', dataDir: null }
          : { kind: 'postgres', url: POSTGRES_URL, schema }
      // The schema as it shipped before ids were scoped: migrations up to 003 only.
      const raw = await openRaw(location)
      try {
        const { db } = raw
        const old = new Migrator({
          db,
          provider: { getMigrations: async () => MIGRATIONS },
          migrationTableSchema: schema ?? 'public',
        })
        const { error } = await old.migrateTo('003-decisions')
        expect(error).toBeUndefined()
        await sql`INSERT INTO tenants (tenant_id, name) VALUES ('a', 'a'), ('b', 'b')`.execute(db)
        await sql`INSERT INTO session_handoffs (handoff_id, tenant_id, experienced)
          VALUES ('h1', 'a', 'kept'), ('h2', 'b', 'kept too')`.execute(db)
        // A link to another tenant's parent, which the old global key allowed.
        await sql`INSERT INTO session_handoffs (handoff_id, tenant_id, parent_handoff_id)
          VALUES ('h3', 'b', 'h1'), ('h4', 'a', 'h1')`.execute(db)
        await sql`INSERT INTO decisions (decision_id, tenant_id, decision)
          VALUES ('d1', 'a', 'kept')`.execute(db)

        await migrateToLatest(db, schema)
        const stores = sqlServiceStores(db)
        expect((await stores.handoffs.get('a', 'h1'))?.experienced).toBe('kept')
        expect((await stores.handoffs.get('b', 'h2'))?.experienced).toBe('kept too')
        expect((await stores.handoffs.get('b', 'h3'))?.parent_handoff_id).toBeNull()
        expect((await stores.handoffs.get('a', 'h4'))?.parent_handoff_id).toBe('h1')
        expect((await stores.decisions.get('a', 'd1'))?.decision).toBe('kept')
        // After the upgrade the other tenant may use the same ids.
        await sql`INSERT INTO session_handoffs (handoff_id, tenant_id) VALUES ('h1', 'b')`.execute(
          db,
        )
        await sql`INSERT INTO decisions (decision_id, tenant_id, decision)
          VALUES ('d1', 'b', 'theirs')`.execute(db)
        expect((await stores.decisions.get('b', 'd1'))?.decision).toBe('theirs')
      } finally {
        await raw.close()
        if (schema !== undefined) await dropSchema(schema)
      }
    })
  })
}

/** The database at `location` without migrations. */
async function openRaw(location: DatabaseLocation) {
  const { Kysely, PostgresDialect } = await import('kysely')
  if (location.kind === 'postgres') {
    const { default: pg } = await import('pg')
    const pool = new pg.Pool({
      connectionString: location.url,
      max: 1,
      options: `-c search_path=${location.schema}`,
    })
    const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) })
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.raw(location.schema ?? 'public')}`.execute(db)
    return { db, close: () => db.destroy() }
  }
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ])
  const pglite = new PGlite()
  const db = new Kysely<never>({ dialect: new PGliteDialect(pglite) })
  return { db, close: () => db.destroy() }
}
