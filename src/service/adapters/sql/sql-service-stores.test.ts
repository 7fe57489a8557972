/**
 * The service stores' contract on both engines, the seed's monitoring queries run unchanged
 * against the schema, and migrations that are safe to run again.
 */
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { describeEachEngine } from '../../../../test/support/describe-each-engine.ts'
import { testHandoffSearch } from '../../ports/handoff-search.contract.ts'
import { sampleHandoff, testServiceStores } from '../../ports/service-stores.contract.ts'
import { migrateToLatest } from './open-service-database.ts'

describeEachEngine('SQL service stores', (test, engine) => {
  testServiceStores({ name: engine, make: async () => test.stores })
  testHandoffSearch({ name: engine, make: async () => test.stores })

  it("runs the seed's monitoring queries unchanged", async () => {
    await test.stores.handoffs.insert([
      sampleHandoff('default', `monitor-${engine}`, {
        experienced: 'abc',
        noticed: 'de',
        learned: 'f',
      }),
    ])
    const { db } = test.database
    const jobs = await sql`SELECT * FROM consolidation_jobs
ORDER BY started_at DESC
LIMIT 20;`.execute(db)
    expect(Array.isArray(jobs.rows)).toBe(true)
    const stats = await sql`SELECT * FROM consolidation_stats
ORDER BY stat_date DESC;`.execute(db)
    expect(Array.isArray(stats.rows)).toBe(true)
    const levels = await sql<{
      compression_level: string
      count: unknown
      avg_tokens: unknown
    }>`SELECT
compression_level,
COUNT(*),
AVG(LENGTH(experienced) + LENGTH(noticed) + LENGTH(learned)) as avg_tokens
FROM session_handoffs
GROUP BY compression_level;`.execute(db)
    const full = levels.rows.find((row) => row.compression_level === 'full')
    expect(Number(full?.count)).toBeGreaterThanOrEqual(1)
    expect(Number(full?.avg_tokens)).toBeGreaterThan(0)
  })

  it('migrates again without error (already up to date)', async () => {
    const schema = test.location.kind === 'postgres' ? test.location.schema : undefined
    await expect(migrateToLatest(test.database.db, schema)).resolves.toBeUndefined()
  })
})
