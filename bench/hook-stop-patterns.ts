/**
 * What pattern learning costs the Stop hook when its gates decide not to encode or consolidate
 * (seed 002's 10% and 5%: nine Stops in ten, docs/design/origins.md): `node dist/hook.cjs stop` on
 * a brain with patterns on, against the same hook on a brain with `"patterns": {"enabled": false}`
 * (the plain Stop), in the same run, interleaved. The gate is seeded with a seed that says no for
 * this session, so every measured Stop takes the "not this time" path. Target: ratio of medians <=
 * 1.05.
 *
 * Run: `npx tsx bench/hook-stop-patterns.ts` (builds dist/ first when stale).
 * Results: bench/results/hook-stop-patterns.json.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_PATTERN_SETTINGS } from '../src/patterns/core/pattern-settings.ts'
import { createRandomGate } from '../src/patterns/core/random-gate.ts'
import { ensureBuilt, HOOK_ENTRY } from '../test/support/build-once.ts'
import { createBrain } from './hook-session-start.ts'

const RUNS = 41
const WARMUP = 3
const TARGET_RATIO = 1.05
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'hook-stop-patterns.json')
const SESSION = 'bench-stop-session'
const MESSAGE = 'Done: the build passes.'

/** A seed whose gates both say no for a Stop of `session` closing with `message`. */
export function refusingSeed(session = SESSION, message: string | null = MESSAGE): number {
  for (let seed = 1; ; seed += 1) {
    const gate = createRandomGate({ seed, key: `${session}\n${message ?? ''}` })
    if (
      !gate('stop-encode', DEFAULT_PATTERN_SETTINGS.stop_encode_chance) &&
      !gate('stop-consolidate', DEFAULT_PATTERN_SETTINGS.stop_consolidate_chance)
    )
      return seed
  }
}

function timeOnce(project: string, input: string): number {
  const started = process.hrtime.bigint()
  const run = spawnSync(process.execPath, [HOOK_ENTRY, 'stop'], {
    cwd: project,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: project },
  })
  if (run.status !== 0) throw new Error(`hook stop exited ${run.status}: ${run.stderr}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  const value =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
  return Math.round(value * 10) / 10
}

/** Runs the benchmark, writes the results file and prints a table. */
export async function main() {
  await ensureBuilt()
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-bench-stop-')))
  try {
    const seed = refusingSeed()
    const projects = {
      plain: createBrain(join(dir, 'plain'), {
        sessions: 8,
        bookmarks: 10,
        knowledge_files: 15,
        tasks: 5,
        triggers: 3,
      }),
      patterns: createBrain(join(dir, 'patterns'), {
        sessions: 8,
        bookmarks: 10,
        knowledge_files: 15,
        tasks: 5,
        triggers: 3,
      }),
    }
    writeFileSync(
      join(projects.plain, '_agent_context', 'somnus.json'),
      JSON.stringify({ patterns: { enabled: false } }),
    )
    writeFileSync(
      join(projects.patterns, '_agent_context', 'somnus.json'),
      JSON.stringify({ patterns: { gate_seed: seed } }),
    )
    const input = (project: string) =>
      JSON.stringify({
        session_id: SESSION,
        transcript_path: join(project, 'missing.jsonl'),
        cwd: project,
        hook_event_name: 'Stop',
        last_assistant_message: MESSAGE,
      })
    const order = ['plain', 'patterns'] as const
    for (let index = 0; index < WARMUP; index += 1)
      for (const name of order) timeOnce(projects[name], input(projects[name]))
    const times = { plain: [] as number[], patterns: [] as number[] }
    for (let index = 0; index < RUNS; index += 1) {
      for (let step = 0; step < order.length; step += 1) {
        const name = order[(index + step) % order.length] as (typeof order)[number]
        times[name].push(timeOnce(projects[name], input(projects[name])))
      }
    }
    const plain = median(times.plain)
    const patterns = median(times.patterns)
    const ratio = Math.round((patterns / plain) * 100) / 100
    const result = {
      runs: RUNS,
      plain_stop_median_ms: plain,
      patterns_stop_no_encode_median_ms: patterns,
      ratio_of_medians: ratio,
      target_ratio: TARGET_RATIO,
      within_target: ratio <= TARGET_RATIO,
      node: process.version,
      measured_at: new Date().toISOString(),
    }
    mkdirSync(dirname(RESULTS), { recursive: true })
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
    process.stdout.write(
      [
        '| Stop hook | median ms |',
        '|---|---|',
        `| plain (patterns off) | ${plain} |`,
        `| patterns on, gates say no | ${patterns} |`,
        `| ratio | ${ratio} (target <= ${TARGET_RATIO}) |`,
        '',
      ].join('\n'),
    )
    return result
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
