/**
 * The hooks and `sleep run` on a 50 MB ledger (issue 13 item 8): a few giant closing messages
 * (5 x 10 MB, what one runaway turn leaves), and many ordinary sessions (50 MB of 2 KB messages,
 * a ledger that grew legitimately). Each command runs as Claude Code or the user runs it, a fresh
 * process on the built bundle, on a fresh copy of the ledger, timed against `node -e 0` measured
 * in the same run. "first Stop" meets the 50 MB file; "next Stop" and "SessionStart after" run on
 * what the first Stop left. `sleep run` is timed once (it is the slow one) with a time limit.
 *
 * Run: `npx tsx bench/big-ledger.ts` (builds dist/ first when stale).
 * Results: bench/results/big-ledger.json.
 */
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureBuilt, HOOK_ENTRY, SOMNUS_BIN } from '../test/support/build-once.ts'
import { createBrain } from './hook-session-start.ts'

const RUNS = Number(process.env.BIG_LEDGER_RUNS ?? 5)
const SLEEP_RUN_LIMIT_MS = Number(process.env.BIG_LEDGER_SLEEP_LIMIT_MS ?? 240_000)
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'big-ledger.json')
const MB = 1024 * 1024

/** One ledger shape. */
interface Shape {
  name: string
  sessions: number
  message_chars: number
}

const SHAPES: Shape[] = [
  { name: 'giant messages: 5 sessions x 10 MB', sessions: 5, message_chars: 10 * MB },
  { name: 'many sessions: 25,000 x 2 KB', sessions: 25_000, message_chars: 2_000 },
]

/** What one shape measured, in ms (medians) and as ratios to `node -e 0`. */
interface ShapeResult {
  shape: Shape
  ledger_mb_before: number
  ledger_mb_after_first_stop: number
  node_ms: number
  first_stop_ms: number
  next_stop_ms: number
  session_start_first_ms: number
  session_start_after_ms: number
  sleep_run_ms: number | null
  ratios: Record<string, number | null>
}

function ledgerOf(shape: Shape): string {
  const sentence = 'Changed the ledger writer and ran the tests; all pass. '
  const message = sentence.repeat(Math.ceil(shape.message_chars / sentence.length))
  const sessions = Array.from({ length: shape.sessions }, (_, index) => ({
    session_id: `session-${index}`,
    transcript_path: null,
    stopped_at: new Date(Date.parse('2026-01-01T00:00:00Z') + index * 60_000).toISOString(),
    last_assistant_message: message.slice(0, shape.message_chars),
    change_count: index % 5,
    tool_count: index % 30,
    score: index % 4,
    task_slugs: [],
  }))
  const debt = sessions.reduce((sum, session) => sum + session.score, 0)
  return JSON.stringify({ debt, sessions_since_last_sleep: sessions.length, sessions })
}

function run(args: string[], cwd: string, input = '', timeout?: number): number {
  const started = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, {
    cwd,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd, SOMNUS_QUIET_SKIPS: '1' },
    maxBuffer: 256 * MB,
    ...(timeout ? { timeout } : {}),
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT')
    return Number.NaN
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`)
  return ms
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  const value =
    sorted.length % 2
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
  return Math.round(value * 10) / 10
}

function measure(shape: Shape): ShapeResult {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-bench-ledger-')))
  try {
    const template = createBrain(join(dir, 'template'), {
      sessions: 0,
      bookmarks: 0,
      knowledge_files: 5,
      tasks: 2,
      triggers: 0,
    })
    const ledgerPath = (project: string) => join(project, '_agent_context', 'state', '.sleep.json')
    writeFileSync(ledgerPath(template), ledgerOf(shape))
    let copies = 0
    const copy = () => {
      const project = join(dir, `copy-${copies++}`)
      cpSync(template, project, { recursive: true })
      return project
    }
    const payload = (project: string, event: string) =>
      JSON.stringify({
        session_id: 'session-0',
        transcript_path: join(project, 'missing.jsonl'),
        cwd: project,
        hook_event_name: event,
        source: 'startup',
        last_assistant_message: 'Done.',
      })
    const times: Record<string, number[]> = {
      node: [],
      first: [],
      next: [],
      startFirst: [],
      startAfter: [],
    }
    let afterMb = 0
    for (let index = 0; index < RUNS; index += 1) {
      times.node?.push(run(['-e', '0'], dir))
      const started = copy()
      times.startFirst?.push(
        run([HOOK_ENTRY, 'session-start'], started, payload(started, 'SessionStart')),
      )
      const project = copy()
      times.first?.push(run([HOOK_ENTRY, 'stop'], project, payload(project, 'Stop')))
      afterMb = statSync(ledgerPath(project)).size / MB
      times.next?.push(run([HOOK_ENTRY, 'stop'], project, payload(project, 'Stop')))
      times.startAfter?.push(
        run([HOOK_ENTRY, 'session-start'], project, payload(project, 'SessionStart')),
      )
      rmSync(started, { recursive: true, force: true })
      rmSync(project, { recursive: true, force: true })
    }
    const sleepProject = copy()
    const sleepMs = run([SOMNUS_BIN, 'sleep', 'run'], sleepProject, '', SLEEP_RUN_LIMIT_MS)
    const node = median(times.node ?? [])
    const ratio = (ms: number | null) =>
      ms === null || Number.isNaN(ms) ? null : Math.round((ms / node) * 10) / 10
    const result = {
      shape,
      ledger_mb_before: Math.round((statSync(ledgerPath(template)).size / MB) * 10) / 10,
      ledger_mb_after_first_stop: Math.round(afterMb * 100) / 100,
      node_ms: node,
      first_stop_ms: median(times.first ?? []),
      next_stop_ms: median(times.next ?? []),
      session_start_first_ms: median(times.startFirst ?? []),
      session_start_after_ms: median(times.startAfter ?? []),
      sleep_run_ms: Number.isNaN(sleepMs) ? null : Math.round(sleepMs),
    }
    return {
      ...result,
      ratios: {
        first_stop: ratio(result.first_stop_ms),
        next_stop: ratio(result.next_stop_ms),
        session_start_first: ratio(result.session_start_first_ms),
        session_start_after: ratio(result.session_start_after_ms),
        sleep_run: ratio(result.sleep_run_ms),
      },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs the benchmark, writes the results file and prints a table. */
export async function main(): Promise<ShapeResult[]> {
  await ensureBuilt()
  const results = SHAPES.map(measure)
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(
    RESULTS,
    `${JSON.stringify({ runs: RUNS, results, node: process.version, measured_at: new Date().toISOString() }, null, 2)}\n`,
  )
  const cell = (ms: number | null, ratio: number | null) =>
    ms === null ? `> ${SLEEP_RUN_LIMIT_MS / 1000} s` : `${ms} ms (${ratio}x)`
  const lines = [
    '| ledger | MB before → after 1st Stop | node -e 0 | 1st Stop | next Stop | SessionStart on it | SessionStart after | sleep run |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (result) =>
        `| ${result.shape.name} | ${result.ledger_mb_before} → ${result.ledger_mb_after_first_stop} | ${result.node_ms} ms | ${cell(result.first_stop_ms, result.ratios.first_stop ?? null)} | ${cell(result.next_stop_ms, result.ratios.next_stop ?? null)} | ${cell(result.session_start_first_ms, result.ratios.session_start_first ?? null)} | ${cell(result.session_start_after_ms, result.ratios.session_start_after ?? null)} | ${cell(result.sleep_run_ms, result.ratios.sleep_run ?? null)} |`,
    ),
    '',
  ]
  process.stdout.write(lines.join('\n'))
  return results
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main()
}
