/**
 * The scheduler enqueues in batches (issue 22 item 5): a monthly run over 10,000 tenants adds
 * each tenant's three jobs once, on PGlite and PostgreSQL (one INSERT for every tenant broke at
 * about 2,730 tenants), and firing the same slot again adds nothing.
 */
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enqueueScheduledRun } from '../../src/service/app/enqueue-scheduled-run.ts'
import {
  ENGINES,
  engineAvailable,
  openTestDatabase,
  type TestDatabase,
} from '../support/service-database.ts'
import { serviceDependencies } from '../support/service-fixtures.ts'

const TENANTS = 10_000

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`the scheduler on ${engine}`, () => {
    let test: TestDatabase
    beforeAll(async () => {
      test = await openTestDatabase(engine)
      await sql`INSERT INTO tenants (tenant_id, name)
        SELECT 'tenant-' || lpad(n::text, 5, '0'), 'Tenant ' || n
        FROM generate_series(1, ${TENANTS}) AS n`.execute(test.database.db)
    }, 120_000)
    afterAll(async () => {
      await test?.dispose()
    })

    it(`enqueues a monthly run for ${TENANTS.toLocaleString('en-US')} tenants once`, async () => {
      const dependencies = serviceDependencies(test.stores, {}, 'sched')
      const slot = new Date('2026-08-01T04:00:00.000Z')
      const everyone = TENANTS + 1 // and the default tenant
      expect(await enqueueScheduledRun(dependencies, 'monthly', slot)).toBe(everyone * 3)
      const counted = await sql<{ tenants: string; jobs: string }>`
        SELECT count(DISTINCT tenant_id) AS tenants, count(*) AS jobs FROM consolidation_jobs
        WHERE scheduled_for = ${slot.toISOString()}::timestamptz`.execute(test.database.db)
      expect(Number(counted.rows[0]?.tenants)).toBe(everyone)
      expect(Number(counted.rows[0]?.jobs)).toBe(everyone * 3)
      expect(await enqueueScheduledRun(dependencies, 'monthly', slot)).toBe(0)
    }, 300_000)
  })
}
