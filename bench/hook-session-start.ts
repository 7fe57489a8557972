/**
 * How long the SessionStart hook takes as Claude Code runs it: the command `somnus init` writes,
 * `node <somnus>/dist/hook.cjs session-start`, a fresh process on the built bundle. On a large
 * brain: 1,000 sessions, 300 bookmarks, 100 knowledge files, 20 tasks, 10 live triggers (each
 * SessionStart shows them and saves their fire counts). Measured against `node -e 0` in the same
 * run, interleaved, so the ratio cancels the machine's speed. Target: at most 2x a bare node
 * start. Also timed: the same hook through the CLI's bin (`node bin/somnus.js hook session-start`),
 * and `hook --help`, loading the hook and nothing else, the floor under every hook event.
 *
 * Run: `npx tsx bench/hook-session-start.ts` (builds dist/ first when stale).
 * Results: bench/results/hook-session-start.json.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureBuilt, HOOK_ENTRY, SOMNUS_BIN } from '../test/support/build-once.ts'

const RUNS = 41
const WARMUP = 3
const TARGET_RATIO = 2
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'hook-session-start.json')

/** Milliseconds of one command over the runs. */
interface Timing {
  median: number
  p90: number
  min: number
}

/** One brain size, measured. */
interface ScenarioResult {
  workspace: BrainSize
  node_baseline_ms: Timing
  /** The command `somnus init` wires: `node <somnus>/dist/hook.cjs session-start`. */
  hook_session_start_ms: Timing
  /** The same hook through the CLI's bin: `node <somnus>/bin/somnus.js hook session-start`. */
  hook_via_bin_ms: Timing
  /** `hook.cjs --help`: loading the hook bundle and nothing else, the floor of every hook. */
  hook_load_only_ms: Timing
  ratio_of_medians: number
  output_chars: number
}

/** What one benchmark run found: the brief's large brain, and a typical one for comparison. */
export interface HookSessionStartResult {
  runs: number
  target_ratio: number
  /** The target applies to the large brain. */
  within_target: boolean
  large: ScenarioResult
  typical: ScenarioResult
  node: string
  measured_at: string
}

/** How big a benchmark brain is. */
interface BrainSize {
  sessions: number
  bookmarks: number
  knowledge_files: number
  tasks: number
  triggers: number
}

/** The brief's large brain (weeks without sleep), and a typical one for comparison. */
export const SIZES: Record<'large' | 'typical', BrainSize> = {
  large: { sessions: 1000, bookmarks: 300, knowledge_files: 100, tasks: 20, triggers: 10 },
  typical: { sessions: 8, bookmarks: 10, knowledge_files: 15, tasks: 5, triggers: 3 },
}

/** Builds a brain of `size` in a temporary folder and returns the project folder. */
export function createBrain(dir: string, size: BrainSize): string {
  const project = join(dir, 'project')
  const root = join(project, '_agent_context')
  for (const folder of ['core', 'knowledge', 'state'])
    mkdirSync(join(root, folder), { recursive: true })
  const now = Date.now()
  const iso = (offsetMinutes: number) => new Date(now - offsetMinutes * 60_000).toISOString()
  writeFileSync(
    join(root, 'core', '0.soul.md'),
    `# Soul\n\n${'Be precise and kind. '.repeat(60)}\n`,
  )
  writeFileSync(
    join(root, 'core', '1.user.md'),
    `# User\n\n${'Prefers small diffs and tests. '.repeat(40)}\n`,
  )
  writeFileSync(
    join(root, 'core', '2.memory.md'),
    `# Memory\n\n${'- decided: keep hooks fast\n'.repeat(80)}`,
  )
  for (let index = 0; index < size.knowledge_files; index += 1) {
    const tags = [`area-${index % 7}`, `topic-${index % 13}`]
    writeFileSync(
      join(root, 'knowledge', `note-${String(index).padStart(3, '0')}.md`),
      `---\ntitle: Note ${index}\nsummary: What we learned about subsystem ${index}\ntags: [${tags.join(', ')}]\ncreated: 2026-01-${String((index % 28) + 1).padStart(2, '0')}\n---\n\n${`Detail ${index}: the reasoning and the fix. `.repeat(30)}\n`,
    )
  }
  for (let index = 0; index < size.tasks; index += 1) {
    writeFileSync(
      join(root, 'state', `task-${index}.md`),
      `---\nname: Task ${index}\nstatus: ${index % 4 === 0 ? 'completed' : 'in_progress'}\ntags: [area-${index % 7}]\n---\n\n## Why\n\nBecause task ${index} matters for the release.\n`,
    )
  }
  const sessions = Array.from({ length: size.sessions }, (_, index) => ({
    session_id: `session-${String(index).padStart(4, '0')}`,
    transcript_path: `/home/user/.claude/projects/-project/session-${index}.jsonl`,
    stopped_at: iso(index * 30),
    last_assistant_message: `Implemented part ${index} of the feature; tests pass. `.repeat(4),
    change_count: index % 12,
    tool_count: (index * 7) % 60,
    score: index % 4,
    task_slugs: [`task-${index % 20}`],
  }))
  const bookmarks = Array.from({ length: size.bookmarks }, (_, index) => ({
    id: `bm_${index.toString(16).padStart(8, '0')}`,
    message: `Decision ${index}: use approach ${index % 5} for area-${index % 7}`,
    salience: (index % 3) + 1,
    created_at: iso(index * 10),
    session_id: `session-${String(index).padStart(4, '0')}`,
    task_slug: null,
  }))
  const triggers = Array.from({ length: size.triggers }, (_, index) => ({
    id: `tr_${index}`,
    when: `area-${index}`,
    remind: `Remember the constraint of area ${index}`,
    source: null,
    created_at: iso(1000),
    fired_count: 0,
    max_fires: 1_000_000,
  }))
  const debt = sessions.reduce((sum, session) => sum + session.score, 0)
  writeFileSync(
    join(root, 'state', '.sleep.json'),
    JSON.stringify(
      { debt, sessions_since_last_sleep: size.sessions, sessions, bookmarks, triggers },
      null,
      2,
    ),
  )
  return project
}

function timeOnce(args: string[], cwd: string, input: string): { ms: number; stdout: string } {
  const started = process.hrtime.bigint()
  const run = spawnSync(process.execPath, args, {
    cwd,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd },
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return { ms, stdout: run.stdout }
}

function stats(values: number[]): { median: number; p90: number; min: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (share: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0
  const round = (value: number) => Math.round(value * 10) / 10
  const middle =
    sorted.length % 2 === 1 ? at(0.5) : ((sorted[sorted.length / 2 - 1] ?? 0) + at(0.5)) / 2
  return { median: round(middle), p90: round(at(0.9)), min: round(sorted[0] ?? 0) }
}

/** Times the hook and `node -e 0` on a brain of `size`, interleaved. */
function measure(size: BrainSize): ScenarioResult {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-bench-hook-')))
  try {
    const project = createBrain(dir, size)
    const payload = JSON.stringify({
      session_id: 'bench',
      source: 'startup',
      cwd: project,
      hook_event_name: 'SessionStart',
    })
    const commands = {
      baseline: { args: ['-e', '0'], input: '' },
      hook: { args: [HOOK_ENTRY, 'session-start'], input: payload },
      viaBin: { args: [SOMNUS_BIN, 'hook', 'session-start'], input: payload },
      load: { args: [HOOK_ENTRY, '--help'], input: '' },
    }
    const order = Object.keys(commands) as (keyof typeof commands)[]
    const run = (name: keyof typeof commands) =>
      timeOnce(commands[name].args, project, commands[name].input)
    let outputChars = 0
    for (let index = 0; index < WARMUP; index += 1) {
      for (const name of order) {
        const { stdout } = run(name)
        if (name === 'hook') outputChars = stdout.length
      }
    }
    const times = {
      baseline: [] as number[],
      hook: [] as number[],
      viaBin: [] as number[],
      load: [] as number[],
    }
    for (let index = 0; index < RUNS; index += 1) {
      // Interleaved, rotating which goes first, so drift in machine load hits all alike.
      for (let step = 0; step < order.length; step += 1) {
        const name = order[(index + step) % order.length] as keyof typeof commands
        times[name].push(run(name).ms)
      }
    }
    const nodeStats = stats(times.baseline)
    const hookStats = stats(times.hook)
    return {
      workspace: size,
      node_baseline_ms: nodeStats,
      hook_session_start_ms: hookStats,
      hook_via_bin_ms: stats(times.viaBin),
      hook_load_only_ms: stats(times.load),
      ratio_of_medians: Math.round((hookStats.median / nodeStats.median) * 100) / 100,
      output_chars: outputChars,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Runs the benchmark, writes the results file and prints a table. */
export async function main(): Promise<HookSessionStartResult> {
  await ensureBuilt()
  const large = measure(SIZES.large)
  const typical = measure(SIZES.typical)
  const result: HookSessionStartResult = {
    runs: RUNS,
    target_ratio: TARGET_RATIO,
    within_target: large.ratio_of_medians <= TARGET_RATIO,
    large,
    typical,
    node: process.version,
    measured_at: new Date().toISOString(),
  }
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
  const row = (name: string, scenario: ScenarioResult) =>
    `| ${name} | ${scenario.node_baseline_ms.median} | ${scenario.hook_load_only_ms.median} | ${scenario.hook_session_start_ms.median} | ${scenario.hook_session_start_ms.p90} | ${scenario.ratio_of_medians} | ${scenario.hook_via_bin_ms.median} | ${scenario.output_chars} |`
  process.stdout.write(
    [
      '| brain | node -e 0 median ms | hook --help median ms | hook median ms | hook p90 ms | ratio | via bin median ms | output chars |',
      '|---|---|---|---|---|---|---|---|',
      row('large: 1,000 sessions, 300 bookmarks, 100 knowledge', large),
      row('typical: 8 sessions, 10 bookmarks, 15 knowledge', typical),
      '',
      `large brain: ${large.ratio_of_medians}x a bare node start (target <= ${TARGET_RATIO}x): ${result.within_target ? 'within' : 'OVER'} target`,
      '',
    ].join('\n'),
  )
  return result
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main()
}
