/**
 * What search (migrations 006 and 006b: the tsvector column, its GIN index, the partial index of
 * rows not yet indexed; vectors made in the background, not in the INSERT) costs ingest,
 * measured as a ratio in one run so the shared machine's load falls on both sides alike. Two
 * schemas of one PostgreSQL: one at the latest migration, one with migration 006 undone. The same
 * 1.6 kB bench handoffs (as bench/service-ingest.ts sends) go into each through the store's
 * multi-row insert, in batches of 16 (what the HTTP batcher groups under load), two writers at
 * once, the two schemas taking turns for several rounds. Reported: handoffs/s and p99 batch
 * latency per side, and with/without.
 *
 * Run: `npm run bench -- service-search-ingest [--rounds N] [--seconds S]`. PostgreSQL at
 * 127.0.0.1:5432 (database `test`); PGlite beside it. Writes bench/results/service-search-ingest.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { down as undoSearch } from '../src/service/adapters/sql/migrations/006-handoff-search.ts'
import { down as undoBackground } from '../src/service/adapters/sql/migrations/006b-handoff-search-in-background.ts'
import { openServiceDatabase } from '../src/service/adapters/sql/open-service-database.ts'
import { sqlServiceStores } from '../src/service/adapters/sql/sql-service-stores.ts'
import type { Handoff } from '../src/service/core/handoff.ts'

const here = dirname(fileURLToPath(import.meta.url))
const POSTGRES_URL =
  process.env.SOMNUS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const BATCH = 16
const WRITERS = 2

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '4' }, seconds: { type: 'string', default: '5' } },
})
const rounds = Number(values.rounds)
const seconds = Number(values.seconds)

let sequence = 0
function handoff(): Handoff {
  sequence += 1
  return {
    handoff_id: `bench-${process.pid}-${sequence}`,
    tenant_id: 'default',
    created_at: new Date().toISOString(),
    sources: [],
    turns: null,
    compression_level: 'full',
    summary: null,
    summary_sources: [],
    quick_ref: null,
    quick_ref_sources: [],
    integrated_into: null,
    consolidated_at: null,
    parent_handoff_id: null,
    summary_tokens: null,
    quick_ref_tokens: null,
    session_id: `bench-${sequence}`,
    with_whom: 'Dana',
    experienced: `Moved the ingest path from one INSERT per request to batched multi-row inserts (${sequence}), measured with autocannon on loopback. The pool stopped starving and the latency tail collapsed; the remaining cost is JSON parsing and validation.`,
    noticed:
      'p99 follows the connection pool, not the query: with two connections busy, every other request waited its turn. Batching made the wait shared instead of serial.',
    learned:
      'Measure before tuning. A benchmark that counts the rows afterwards catches an acknowledged write that never landed, which a latency number never shows.',
    story:
      'We started from a slow endpoint, suspected the ORM, found the insert loop, and fixed it in the store layer without changing the API.',
    becoming: 'someone who measures before changing code',
    remember: 'Check that every acknowledged handoff is in the database after a load test.',
    significance: 0.6,
    tags: ['perf', 'sql', 'bench'],
    full_tokens: 350,
  }
}

interface Side {
  label: string
  stores: ReturnType<typeof sqlServiceStores>
  close: () => Promise<void>
  inserted: number
  elapsed: number
  latencies: number[]
}

async function open(
  label: string,
  location: Parameters<typeof openServiceDatabase>[0],
  withSearch: boolean,
): Promise<Side> {
  const database = await openServiceDatabase(location)
  if (!withSearch) {
    await undoBackground(database.db as never)
    await undoSearch(database.db as never)
  }
  return {
    label,
    stores: sqlServiceStores(database.db),
    close: database.close,
    inserted: 0,
    elapsed: 0,
    latencies: [],
  }
}

async function load(side: Side) {
  const until = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (performance.now() < until) {
        const batch = Array.from({ length: BATCH }, handoff)
        const at = performance.now()
        await side.stores.handoffs.insert(batch)
        side.latencies.push(performance.now() - at)
        side.inserted += batch.length
      }
    }),
  )
  side.elapsed += performance.now() - started
}

function figures(side: Side) {
  const sorted = [...side.latencies].sort((a, b) => a - b)
  const at = (share: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0
  return {
    side: side.label,
    handoffs_per_second: Math.round(side.inserted / (side.elapsed / 1000)),
    batch_p50_ms: Number(at(0.5).toFixed(1)),
    batch_p99_ms: Number(at(0.99).toFixed(1)),
    inserted: side.inserted,
  }
}

async function measure(engine: string, make: (withSearch: boolean) => Promise<Side>) {
  const sides = [await make(true), await make(false)]
  try {
    for (const side of sides) await load(side) // warm-up, not counted
    for (const side of sides) Object.assign(side, { inserted: 0, elapsed: 0, latencies: [] })
    for (let round = 0; round < rounds; round += 1) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await load(side)
    }
  } finally {
    for (const side of sides) await side.close()
  }
  const [withSearch, without] = sides.map(figures) as [
    ReturnType<typeof figures>,
    ReturnType<typeof figures>,
  ]
  return {
    engine,
    with_search: withSearch,
    without_search: without,
    throughput_ratio: Number(
      (withSearch.handoffs_per_second / without.handoffs_per_second).toFixed(3),
    ),
  }
}

const results = []
const schemas = [`somnus_bench_si_on_${process.pid}`, `somnus_bench_si_off_${process.pid}`]
try {
  results.push(
    await measure('PostgreSQL', (withSearch) =>
      open(
        withSearch ? 'with search (006, 006b)' : 'without (006, 006b undone)',
        {
          kind: 'postgres',
          url: POSTGRES_URL,
          schema: withSearch ? schemas[0] : schemas[1],
        },
        withSearch,
      ),
    ),
  )
} catch (error) {
  process.stdout.write(`PostgreSQL skipped: ${(error as Error).message}\n`)
} finally {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect().catch(() => {})
  for (const schema of schemas)
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {})
  await client.end().catch(() => {})
}
results.push(
  await measure('PGlite (memory)', (withSearch) =>
    open(
      withSearch ? 'with search (006, 006b)' : 'without (006, 006b undone)',
      { kind: 'pglite', dataDir: null },
      withSearch,
    ),
  ),
)

process.stdout.write(
  `load average at the end: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(
      ' ',
    )}\n\n| database | side | handoffs/s | batch of ${BATCH} p50 ms | p99 ms | inserted |\n|---|---|---|---|---|---|\n`,
)
for (const result of results) {
  for (const side of [result.with_search, result.without_search]) {
    process.stdout.write(
      `| ${result.engine} | ${side.side} | ${side.handoffs_per_second} | ${side.batch_p50_ms} | ${side.batch_p99_ms} | ${side.inserted} |\n`,
    )
  }
  process.stdout.write(`| ${result.engine} | with ÷ without | ${result.throughput_ratio} | | | |\n`)
}
mkdirSync(join(here, 'results'), { recursive: true })
writeFileSync(
  join(here, 'results', 'service-search-ingest.json'),
  `${JSON.stringify({ at: new Date().toISOString(), rounds, seconds, results }, null, 2)}\n`,
)
