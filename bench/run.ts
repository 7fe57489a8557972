/**
 * `npm run bench`: runs every benchmark in its own process (so one's memory never colours
 * another's), one after the other (so they don't compete for the 2 cores), and prints their tables.
 * Pass names to run a subset: `npm run bench -- transcript-stats`.
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BENCHMARKS = [
  'transcript-stats',
  'token-count',
  'cli-startup',
  'hook-session-start',
  'hook-baseline',
  'big-transcript-folder',
  'big-ledger',
  'locomo-retention',
  'extractive-cost',
  'fact-recall',
  'sleep-read',
  'pattern-quality',
  'hook-stop-patterns',
  'service-compression',
  'service-ingest',
  'service-fairness',
  'identity-grouping',
  'identity-grouping-variants',
  'service-levels',
  'mind-retention',
  'recall-quality',
  'recall-latency',
  'recall-libraries',
  'dashboard-render',
  'redaction-false-positives',
  'service-search',
  'service-search-ingest',
]

const here = dirname(fileURLToPath(import.meta.url))
const wanted = process.argv.slice(2)
const named = BENCHMARKS.filter((name) => wanted.includes(name))
const selected = named.length > 0 ? named : BENCHMARKS
// The rest (`--engine postgres`, `--tune`) goes to the benches named: each reads its own flags.
const flags = named.length > 0 ? wanted.filter((word) => !BENCHMARKS.includes(word)) : []
let failures = 0
for (const name of selected) {
  process.stdout.write(`\n## ${name}\n\n`)
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, `${name}.ts`), ...flags], {
    stdio: 'inherit',
    cwd: join(here, '..'),
  })
  if (run.status !== 0) {
    failures += 1
    process.stdout.write(`\n${name} failed (exit ${run.status ?? run.signal})\n`)
  }
}
process.exitCode = failures === 0 ? 0 : 1
