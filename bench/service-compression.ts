/**
 * Compression throughput of the consolidation service: N handoffs made from the LoCoMo dev
 * sessions (real conversation text, 730 tokens on average, turns kept so summaries cite dialog
 * ids), dated evenly over the last 200 days, then one `handoff_compression` job with the
 * extractive model. Timed: the job alone (reading, summarizing at 500 and 100 tokens, measuring,
 * writing levels and stats). PostgreSQL at 127.0.0.1:5432 (database `test`, a throwaway schema)
 * gets 100,000 handoffs (target: under 2 minutes); embedded PGlite beside it gets fewer and the
 * per-handoff rate is compared.
 *
 * Run: `npx tsx bench/service-compression.ts [--rows N] [--pglite-rows N] [--threads N]` (or
 * `npm run bench -- service-compression`). Writes bench/results/service-compression.json.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { createExtractiveLanguageModel } from '../src/engine/adapters/llm/extractive-language-model.ts'
import { fixedClock } from '../src/engine/ports/clock.ts'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
import type { DatabaseLocation } from '../src/service/adapters/sql/open-service-database.ts'
import { openSqlServiceStores } from '../src/service/adapters/sql/sql-service-stores.ts'
import { newHandoff } from '../src/service/app/create-handoffs.ts'
import { runConsolidation } from '../src/service/app/run-consolidation.ts'
import { locomoHandoffs } from '../src/service/core/locomo-handoffs.ts'
import { resolveServiceConfig } from '../src/service/core/service-config.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../test/support/shared-data.ts'

const DAY_MS = 86_400_000
const AS_OF = new Date('2026-07-01T00:00:00.000Z')
const POSTGRES_URL =
  process.env.SOMNUS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** One engine's result. */
interface Result {
  engine: string
  /** Worker threads the extractive model summarized on (1: the job's own thread). */
  threads: number
  handoffs: number
  needing_work: number
  insert_seconds: number
  compress_seconds: number
  /** CPU seconds this process spent in the job (user + system): what the machine's load does not inflate. */
  compress_cpu_seconds: number
  handoffs_per_second: number
  ms_per_compressed_handoff: number
  tokens_before: number
  tokens_after: number
  percentage_saved: number
}

function templates() {
  const files = readdirSync(LOCOMO_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
  return files.flatMap((file) =>
    locomoHandoffs(
      JSON.parse(readFileSync(join(LOCOMO_DIR, file), 'utf8')),
      file.replace(/\.json$/, ''),
    ),
  )
}

async function runOn(
  engine: string,
  location: DatabaseLocation,
  rows: number,
  threads: number,
): Promise<Result> {
  const { stores } = await openSqlServiceStores(location)
  try {
    const clock = fixedClock(AS_OF)
    const ids = sequentialIds()
    const base = templates().map((input) => newHandoff({ clock, ids }, 'default', input))
    const started = performance.now()
    const chunk = 1000
    for (let start = 0; start < rows; start += chunk) {
      const batch = Array.from({ length: Math.min(chunk, rows - start) }, (_, offset) => {
        const index = start + offset
        const template = base[index % base.length]
        if (!template) throw new Error('no LoCoMo sessions')
        return {
          ...template,
          handoff_id: `bench-${String(index).padStart(7, '0')}`,
          session_id: `bench-session-${index}`,
          // Spread over 0-200 days, so the mix holds every level.
          created_at: new Date(
            AS_OF.getTime() - ((index * 7919) % 200) * DAY_MS - 3_600_000,
          ).toISOString(),
        }
      })
      await stores.handoffs.insert(batch)
    }
    const insertSeconds = (performance.now() - started) / 1000
    const dependencies = {
      stores,
      model: createExtractiveLanguageModel({ threads }),
      clock,
      ids,
      config: resolveServiceConfig({ compression_batch_size: 500, compression_threads: threads }),
    }
    let lastReport = performance.now()
    const compressStarted = performance.now()
    const cpuStarted = process.cpuUsage()
    const response = await runConsolidation(dependencies, {
      tenantId: 'default',
      jobType: 'handoff_compression',
      workerId: 'bench',
      onProgress: (_job, tally) => {
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now()
          process.stderr.write(`  ${engine}: ${tally.items_processed} processed\n`)
        }
      },
    })
    const compressSeconds = (performance.now() - compressStarted) / 1000
    const cpu = process.cpuUsage(cpuStarted)
    const [result] = response.results
    const [stat] = await stores.stats.list('default', { limit: 1 })
    const needing = result?.items_affected ?? 0
    return {
      engine,
      threads,
      handoffs: rows,
      needing_work: needing,
      insert_seconds: round(insertSeconds),
      compress_seconds: round(compressSeconds),
      compress_cpu_seconds: round((cpu.user + cpu.system) / 1e6),
      handoffs_per_second: Math.round(rows / compressSeconds),
      ms_per_compressed_handoff: round((compressSeconds * 1000) / Math.max(1, needing), 3),
      tokens_before: stat?.before_tokens ?? 0,
      tokens_after: stat?.after_tokens ?? 0,
      percentage_saved: stat?.percentage_saved ?? 0,
    }
  } finally {
    await stores.close()
  }
}

function round(value: number, digits = 1): number {
  return Math.round(value * 10 ** digits) / 10 ** digits
}

async function postgresSchema(): Promise<{ schema: string; drop: () => Promise<void> } | null> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
  } catch {
    return null
  }
  const schema = `somnus_bench_${process.pid}`
  await client.end()
  return {
    schema,
    drop: async () => {
      const dropper = new pg.Client({ connectionString: POSTGRES_URL })
      await dropper.connect()
      await dropper.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await dropper.end()
    },
  }
}

/** Runs the benchmark on both engines. */
export async function main(argv = process.argv.slice(2)): Promise<Result[]> {
  if (!HAS_SHARED) {
    process.stdout.write(`LoCoMo data not found at ${LOCOMO_DIR}: benchmark skipped.\n`)
    return []
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: 'string', default: '100000' },
      'pglite-rows': { type: 'string', default: '10000' },
      threads: { type: 'string', default: '1' },
    },
  })
  const results: Result[] = []
  const postgres = await postgresSchema()
  if (postgres) {
    try {
      results.push(
        await runOn(
          'PostgreSQL',
          { kind: 'postgres', url: POSTGRES_URL, schema: postgres.schema },
          Number(values.rows),
          Number(values.threads),
        ),
      )
    } finally {
      await postgres.drop()
    }
  } else {
    process.stdout.write(`PostgreSQL not reachable at ${POSTGRES_URL}: PostgreSQL row skipped.\n`)
  }
  results.push(
    await runOn(
      'PGlite (in memory)',
      { kind: 'pglite', dataDir: null },
      Number(values['pglite-rows']),
      Number(values.threads),
    ),
  )
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results/service-compression.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify({ as_of: AS_OF.toISOString(), results }, null, 2)}\n`)
  process.stdout.write(
    [
      'Handoff compression, extractive model, handoffs from LoCoMo dev sessions dated over 200 days',
      '',
      '| engine | threads | handoffs | compressed | insert s | job s | job CPU s | handoffs/s | ms per compressed | CPU ms per compressed | tokens before → after | saved |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (row) =>
          `| ${row.engine} | ${row.threads} | ${row.handoffs} | ${row.needing_work} | ${row.insert_seconds} | ${row.compress_seconds} | ${row.compress_cpu_seconds} | ${row.handoffs_per_second} | ${row.ms_per_compressed_handoff} | ${round((row.compress_cpu_seconds * 1000) / Math.max(1, row.needing_work), 3)} | ${row.tokens_before} → ${row.tokens_after} | ${row.percentage_saved} % |`,
      ),
      '',
    ].join('\n'),
  )
  return results
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
