/**
 * `somnus tenant delete` (issue 22 item 10), on both databases: without --yes it only says what
 * would go; with it, every row of the tenant goes (handoffs, decisions, principles, jobs, stats,
 * keys) and its creature folder too, without following a link inside it, while another tenant
 * keeps everything.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openServiceDatabase } from '../../src/service/adapters/sql/open-service-database.ts'
import { sqlServiceStores } from '../../src/service/adapters/sql/sql-service-stores.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import {
  dropSchema,
  ENGINES,
  engineAvailable,
  freshSchemaName,
  POSTGRES_URL,
} from '../support/service-database.ts'

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`somnus tenant delete on ${engine}`, () => {
    let folder: string
    let db: string
    let schema: string | undefined
    let minds: string
    const somnus = (args: string[], stdin?: string) =>
      runCliCaptured([...args, '--db', db], {
        cwd: folder,
        env: { HOME: folder, SOMNUS_MINDS_DIR: minds },
        ...(stdin === undefined ? {} : { stdin }),
      })

    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), 'somnus-tenant-delete-'))
      schema = engine === 'postgres' ? freshSchemaName('tdelete') : undefined
      db = engine === 'postgres' ? `${POSTGRES_URL}?schema=${schema}` : join(folder, 'db')
      minds = join(folder, 'minds')
    })
    afterAll(async () => {
      if (schema !== undefined) await dropSchema(schema)
      rmSync(folder, { recursive: true, force: true })
    })

    it('deletes every row of the tenant and its creature folder, and nothing of another', async () => {
      const lines = Array.from({ length: 12 }, (_, index) =>
        JSON.stringify({
          handoff_id: `h-${index}`,
          created_at: '2025-01-01T00:00:00Z',
          experienced: `Session ${index} moved the ingest path to batched inserts.`,
          becoming: `someone who measures the slow path before changing code (${index})`,
        }),
      ).join('\n')
      for (const tenant of ['acme', 'globex']) {
        expect((await somnus(['tenant', 'create', tenant])).code).toBe(0)
        expect((await somnus(['tenant', 'keys', 'create', tenant])).code).toBe(0)
        const imported = await somnus(
          ['handoffs', 'import', '--format', 'jsonl', '--tenant', tenant],
          lines,
        )
        expect(imported.code, imported.stderr).toBe(0)
        const run = await somnus([
          'consolidate',
          'run',
          '--tenant',
          tenant,
          '--as-of',
          '2026-01-01',
        ])
        expect(run.code, run.stderr).toBe(0)
        mkdirSync(join(minds, tenant), { recursive: true })
        writeFileSync(join(minds, tenant, 'conversation.jsonl'), '{"said":"hello"}\n')
      }
      // A link inside the creature folder points outside it: what it points to must stay.
      const outside = join(folder, 'outside.txt')
      writeFileSync(outside, 'not the tenant’s')
      symlinkSync(outside, join(minds, 'acme', 'link.txt'))

      const asked = await somnus(['tenant', 'delete', 'acme'])
      expect(asked.code).toBe(2)
      expect(asked.stderr).toContain('12 handoff(s)')
      expect(asked.stderr).toContain('--yes')
      expect(existsSync(join(minds, 'acme'))).toBe(true)

      const deleted = await somnus(['tenant', 'delete', 'acme', '--yes', '--json'])
      expect(deleted.code, deleted.stderr).toBe(0)
      const report = JSON.parse(deleted.stdout)
      expect(report.deleted).toMatchObject({ handoffs: 12, api_keys: 2, jobs: 3 })
      expect(report.deleted.decisions).toBeGreaterThanOrEqual(1)
      expect(report.deleted.stats).toBeGreaterThanOrEqual(1)
      expect(existsSync(join(minds, 'acme'))).toBe(false)
      expect(readFileSync(outside, 'utf8')).toBe('not the tenant’s')
      expect(existsSync(join(minds, 'globex', 'conversation.jsonl'))).toBe(true)

      // Nothing of it is left in any table; the other tenant has all of its own.
      const database = await openServiceDatabase(
        engine === 'postgres'
          ? { kind: 'postgres', url: POSTGRES_URL, schema }
          : { kind: 'pglite', dataDir: db },
      )
      try {
        const stores = sqlServiceStores(database.db)
        expect(await stores.tenants.get('acme')).toBeNull()
        expect(await stores.tenants.holdings('acme')).toEqual({
          handoffs: 0,
          decisions: 0,
          jobs: 0,
          stats: 0,
          api_keys: 0,
        })
        expect(await stores.tenants.holdings('globex')).toMatchObject({
          handoffs: 12,
          jobs: 3,
          api_keys: 2,
        })
      } finally {
        await database.close()
      }
      const again = await somnus(['tenant', 'delete', 'acme', '--yes'])
      expect(again.code).toBe(1)
      expect(again.stderr).toContain('No tenant acme')
    }, 180_000)
  })
}
