/**
 * Issue 9's speed target: the SessionStart and Stop hooks stay within 5% of the build from before
 * that work (7e325a5, the last commit before issues 9 and 13). That build is made once from git
 * (a detached worktree under bench/.baseline/, `npm ci` and `npm run build` there: it needs the
 * npm registry the first time) and run beside this checkout's build, interleaved with `node -e 0`,
 * on the large and typical brains of hook-session-start.ts. Stop reads a real 3 MB transcript
 * (large) or the small tool-heavy one (typical) from ../shared. Each build gets its own copy of
 * each brain and its own HOME, so each keeps its own code cache. Ratios of medians of wall time.
 *
 * Run: `npx tsx bench/hook-baseline.ts` (or `npm run bench -- hook-baseline`);
 * SOMNUS_BASELINE_REV picks another revision. Results: bench/results/hook-baseline.json.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sha256Hex } from '../src/engine/core/sha256-hex.ts'
import { ensureBuilt, HOOK_ENTRY } from '../test/support/build-once.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'
import { SIZES as BRAINS, createBrain } from './hook-session-start.ts'
import { refusingSeed } from './hook-stop-patterns.ts'

const REVISION = process.env.SOMNUS_BASELINE_REV ?? '7e325a5'
const RUNS = 41
const WARMUP = 3
const TARGET_RATIO = 1.05
const here = dirname(fileURLToPath(import.meta.url))
const REPO = join(here, '..')
const RESULTS = join(
  here,
  'results',
  process.env.SOMNUS_BENCH_WORKTREE === '1' ? 'hook-baseline-worktree.json' : 'hook-baseline.json',
)

const TRANSCRIPTS = {
  large: '4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  typical: 'tool_heavy.jsonl',
}

/** The baseline's hook entry, built once per revision. */
function baselineHook(): string {
  const folder = join(here, '.baseline', REVISION)
  const entry = join(folder, 'dist', 'hook.cjs')
  if (existsSync(entry)) return entry
  process.stderr.write(`building the baseline hook of ${REVISION} in ${folder} (once)...\n`)
  rmSync(folder, { recursive: true, force: true })
  execFileSync('git', ['worktree', 'prune'], { cwd: REPO })
  execFileSync('git', ['worktree', 'add', '--detach', folder, REVISION], {
    cwd: REPO,
    stdio: 'pipe',
  })
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: folder,
    stdio: 'pipe',
  })
  execFileSync('npm', ['run', 'build'], { cwd: folder, stdio: 'pipe' })
  return entry
}

/**
 * `SOMNUS_BENCH_WORKTREE=1`: each brain lives in a git worktree (a real `git worktree add` of a
 * repository beside it) and a pattern folder of 40 entries exists, so SessionStart finds the
 * project, computes its id and shows the pattern index (issue 20: the id is the main
 * repository's, read from the worktree's `.git` file and the repository's files).
 */
const WORKTREE = process.env.SOMNUS_BENCH_WORKTREE === '1'

/** `<dir>/project` as a worktree of the repository `<dir>/main`. */
function worktreeAt(dir: string): void {
  const main = join(dir, 'main')
  mkdirSync(main)
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: main,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@b',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@b',
      },
    })
  git('init', '-q')
  git('commit', '-q', '--allow-empty', '-m', 'start')
  git('worktree', 'add', '-q', join(dir, 'project'))
}

/** The same 40 entries in the pattern folder of every id a build may compute for `project`. */
function patternFoldersFor(home: string, project: string): void {
  const entries = (domain: string) =>
    Array.from(
      { length: 10 },
      (_, index) =>
        `---\nid: 2026-02-1${index % 10}-${domain.slice(0, 4).padEnd(4, 'x')}${String(index).padStart(4, '0')}\ndomain: ${domain}\ndate: 2026-02-1${index % 10}\ncategory: gotcha\ntags: [${domain}]\nsources: [session-${index}]\nstatus: active\n---\n### \`${domain} run\` fails: error number ${index}\n\n- **Observation**: \`${domain} run\` fails with \`error ${index}\`\n- **Details**: Fix: change the setting ${index}.\n- **Context**: Running \`${domain} run\` in this project.\n`,
    ).join('\n')
  for (const root of [project, join(home, 'main')]) {
    const folder = join(home, '.claude', 'rem', 'patterns', sha256Hex(root).slice(0, 16))
    mkdirSync(folder, { recursive: true })
    for (const domain of ['git', 'elixir', 'node', 'testing'])
      writeFileSync(join(folder, `${domain}.md`), entries(domain))
  }
}

/**
 * Pattern learning's gates (seed 002, docs/design/origins.md) are seeded to say no: a Stop they let
 * through starts a detached `somnus patterns encode` of the 3 MB transcript, which would run beside
 * the next measurements (its cost to the Stop itself is hook-stop-patterns.ts's to measure).
 */
const QUIET_GATES = String(refusingSeed('bench-stop', null))

/** Milliseconds from spawn to exit of `node <args>`, which must exit 0. */
function timeOnce(args: string[], cwd: string, home: string, input: string): number {
  const started = process.hrtime.bigint()
  const run = spawnSync(process.execPath, args, {
    cwd,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, SOMNUS_PATTERNS_GATE_SEED: QUIET_GATES },
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return ms
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right)
  const middle = sorted.length >> 1
  const value =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
  return Math.round(value * 10) / 10
}

/** One hook event on one brain: both builds' medians and the ratio of this build to the baseline. */
interface Comparison {
  baseline_ms: number
  current_ms: number
  ratio: number
  within_target: boolean
}

/** What one brain size measured. */
interface BrainResult {
  node_ms: number
  session_start: Comparison
  stop: Comparison
}

function compare(
  size: keyof typeof BRAINS,
  hooks: { baseline: string; current: string },
): BrainResult {
  const cases: { name: string; args: string[]; cwd: string; home: string; input: string }[] = [
    { name: 'node', args: ['-e', '0'], cwd: tmpdir(), home: tmpdir(), input: '' },
  ]
  const made: string[] = []
  for (const [build, entry] of Object.entries(hooks)) {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), `somnus-bench-baseline-${build}-`)))
    made.push(dir)
    if (WORKTREE) worktreeAt(dir)
    const project = createBrain(dir, BRAINS[size])
    if (WORKTREE) patternFoldersFor(dir, project)
    const transcript = join(dir, 'session.jsonl')
    copyFileSync(join(TRANSCRIPTS_DIR, TRANSCRIPTS[size]), transcript)
    const sessionStart = {
      session_id: 'bench',
      source: 'startup',
      cwd: project,
      hook_event_name: 'SessionStart',
    }
    const stop = {
      session_id: 'bench-stop',
      transcript_path: transcript,
      cwd: project,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    }
    cases.push(
      {
        name: `session-start ${build}`,
        args: [entry, 'session-start'],
        cwd: project,
        home: dir,
        input: JSON.stringify(sessionStart),
      },
      {
        name: `stop ${build}`,
        args: [entry, 'stop'],
        cwd: project,
        home: dir,
        input: JSON.stringify(stop),
      },
    )
  }
  const times = new Map<string, number[]>(cases.map((item) => [item.name, []]))
  try {
    // One event at a time, so a Stop (a 3 MB read, a ledger write) never runs just before one
    // build's SessionStart and not the other's; and the two builds take turns going first.
    for (const event of ['session-start', 'stop']) {
      const round = cases.filter((item) => item.name === 'node' || item.name.startsWith(event))
      for (let run = 0; run < WARMUP + RUNS; run += 1) {
        for (const item of run % 2 === 0 ? round : [...round].reverse()) {
          const ms = timeOnce(item.args, item.cwd, item.home, item.input)
          if (run >= WARMUP) times.get(item.name)?.push(ms)
        }
      }
    }
  } finally {
    for (const dir of made) rmSync(dir, { recursive: true, force: true })
  }
  const of = (name: string) => median(times.get(name) ?? [])
  const comparison = (event: string): Comparison => {
    const baseline = of(`${event} baseline`)
    const current = of(`${event} current`)
    const ratio = Math.round((current / baseline) * 1000) / 1000
    return {
      baseline_ms: baseline,
      current_ms: current,
      ratio,
      within_target: ratio <= TARGET_RATIO,
    }
  }
  return {
    node_ms: of('node'),
    session_start: comparison('session-start'),
    stop: comparison('stop'),
  }
}

async function main(): Promise<void> {
  if (!HAS_SHARED) {
    process.stdout.write(`hook-baseline skipped: ${SHARED_SKIP_REASON}\n`)
    return
  }
  await ensureBuilt()
  const hooks = { baseline: baselineHook(), current: HOOK_ENTRY }
  const large = compare('large', hooks)
  const typical = compare('typical', hooks)
  const result = {
    revision: REVISION,
    worktree: WORKTREE,
    runs: RUNS,
    target_ratio: TARGET_RATIO,
    large,
    typical,
    node: process.version,
    measured_at: new Date().toISOString(),
  }
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
  const row = (name: string, brain: BrainResult, event: 'session_start' | 'stop') => {
    const item = brain[event]
    return `| ${name} | ${event === 'stop' ? 'Stop' : 'SessionStart'} | ${brain.node_ms} | ${item.baseline_ms} | ${item.current_ms} | **${item.ratio}x** |`
  }
  process.stdout.write(
    [
      `| brain | hook | \`node -e 0\` ms | ${REVISION} ms | this build ms | ratio |`,
      '|---|---|---|---|---|---|',
      row('large', large, 'session_start'),
      row('large', large, 'stop'),
      row('typical', typical, 'session_start'),
      row('typical', typical, 'stop'),
      '',
      `target: each ratio <= ${TARGET_RATIO}`,
      '',
    ].join('\n'),
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
