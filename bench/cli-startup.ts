/**
 * Issue 23's start-up target: `somnus --help` and the everyday commands within 2x a bare
 * `node -e 0`. Each command runs as a user runs it (`node bin/somnus.js <args>`, the built CLI)
 * in a project made by `somnus init`, with its own HOME so the code cache starts empty: the
 * first run of each command (the cache being written) is reported apart, then RUNS rounds in
 * which every command and `node -e 0` take turns. Ratios of medians of wall time.
 *
 * With SOMNUS_BASELINE_REV (a git revision, e.g. 61982b6, the build before issue 23), that
 * build is made once in bench/.baseline/<rev> (sharing this checkout's node_modules when the lock
 * files match, `npm ci` otherwise) and measured in the same rounds.
 *
 * Run: `npx tsx bench/cli-startup.ts` (or `npm run bench -- cli-startup`).
 * Results: bench/results/cli-startup.json, and a markdown table on stdout.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBuilt, SOMNUS_BIN } from '../test/support/build-once.ts'

const RUNS = Number(process.env.SOMNUS_BENCH_RUNS ?? 7)
const TARGET_RATIO = 2
const here = dirname(fileURLToPath(import.meta.url))
const REPO = join(here, '..')
const RESULTS = join(here, 'results', 'cli-startup.json')

/** The commands measured: their label and arguments (`recall` when this build has it). */
function commands(transcript: string, textFile: string): Array<[string, string[]]> {
  return [
    ['--help', ['--help']],
    ['sleep status', ['sleep', 'status']],
    ['sleep debt', ['sleep', 'debt']],
    ['bookmark add', ['bookmark', 'add', 'Chose SQLite for the local cache']],
    ['bookmark list', ['bookmark', 'list']],
    ['recall', ['recall', 'SQLite cache']],
    ['snapshot', ['snapshot']],
    ['tasks list', ['tasks', 'list']],
    ['knowledge list', ['knowledge', 'list']],
    ['trigger list', ['trigger', 'list']],
    ['transcript stats (small file)', ['transcript', 'stats', transcript]],
    ['tokens (small file)', ['tokens', textFile]],
  ]
}

/** One build under test: its bin, its HOME (own code cache) and its project. */
interface Build {
  label: string
  bin: string
  home: string
  project: string
}

/** A ratio, in bold when it meets the target. */
function bold(ratio: number): string {
  return ratio <= TARGET_RATIO ? `**${ratio}x**` : `${ratio}x`
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}

/**
 * Preloaded into every measured process (`node -r <it> ...`, `node -e 0` alike): at exit it
 * reports the CPU time the process used, all its threads (V8 compiles and collects on others).
 * On a busy machine wall time also counts the wait for a core; CPU time counts the work.
 */
const CPU_REPORTER = `process.once('exit', () => {
  const { user, system } = process.cpuUsage()
  process.getBuiltinModule('node:fs').writeSync(2, '\\n@@cpu ' + (user + system) / 1000 + '\\n')
})\n`

/** Wall time from spawn to exit of `node <args>`, and the CPU time it reported; throws when it fails. */
function timeOnce(args: string[], cwd: string, home: string): { ms: number; cpuMs: number } {
  const started = process.hrtime.bigint()
  const run = spawnSync(process.execPath, ['-r', cpuReporter, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home },
  })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  const cpu = [...run.stderr.matchAll(/@@cpu ([\d.]+)/g)].at(-1)
  if (run.status !== 0 || cpu === undefined)
    throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return { ms, cpuMs: Number(cpu[1]) }
}

let cpuReporter = ''

/** The baseline's bin, built once per revision in bench/.baseline/. */
function baselineBin(revision: string): string {
  const folder = join(here, '.baseline', `cli-${revision}`)
  const bin = join(folder, 'bin', 'somnus.js')
  if (existsSync(join(folder, 'dist'))) return bin
  process.stderr.write(`building the baseline CLI of ${revision} in ${folder} (once)...\n`)
  rmSync(folder, { recursive: true, force: true })
  execFileSync('git', ['worktree', 'prune'], { cwd: REPO })
  execFileSync('git', ['worktree', 'add', '--detach', folder, revision], {
    cwd: REPO,
    stdio: 'pipe',
  })
  const lock = (root: string) => readFileSync(join(root, 'package-lock.json'), 'utf8')
  if (lock(folder) === lock(REPO))
    symlinkSync(join(REPO, 'node_modules'), join(folder, 'node_modules'))
  else execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: folder })
  execFileSync('npm', ['run', 'build'], { cwd: folder, stdio: 'pipe' })
  return bin
}

/** A project with a brain, a bookmark and a trigger, and a HOME of its own. */
function prepare(label: string, bin: string, scratch: string): Build {
  const root = join(scratch, label.replace(/[^a-z0-9]+/gi, '-'))
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(project, { recursive: true })
  for (const args of [
    ['init'],
    ['bookmark', 'add', '-s', '3', 'Tokens must never be stored in localStorage'],
    ['trigger', 'add', 'auth', 'check the token store'],
  ]) {
    timeOnce([bin, ...args], project, home)
  }
  return { label, bin, home, project }
}

/** This build's commands: those its CLI knows (`recall` arrives with issue 19). */
function known(build: Build, all: Array<[string, string[]]>): Array<[string, string[]]> {
  const help = spawnSync(process.execPath, [build.bin, '--help'], { encoding: 'utf8' }).stdout
  return all.filter(([, args]) => args[0]?.startsWith('-') || help.includes(`\n  ${args[0]} `))
}

async function main(): Promise<void> {
  await ensureBuilt()
  const loadAtStart = loadavg().map((value) => value.toFixed(2))
  const scratch = mkdtempSync(join(tmpdir(), 'somnus-bench-startup-'))
  try {
    cpuReporter = join(scratch, 'cpu-reporter.cjs')
    writeFileSync(cpuReporter, CPU_REPORTER)
    const transcript = join(scratch, 'small.jsonl')
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', timestamp: '2026-02-12T16:00:00.000Z', message: { role: 'user', content: 'hello' } })}\n`,
    )
    const textFile = join(scratch, 'note.txt')
    writeFileSync(textFile, 'A short note to count.\n')
    const all = commands(transcript, textFile)
    const builds = [prepare('this build', SOMNUS_BIN, scratch)]
    const revision = process.env.SOMNUS_BASELINE_REV
    if (revision) builds.push(prepare(`build ${revision}`, baselineBin(revision), scratch))

    // First runs: each command meets an empty code cache (what the first call after an install pays).
    const first = new Map<string, { ms: number; cpuMs: number }>()
    const perBuild = new Map(builds.map((build) => [build, known(build, all)]))
    for (const build of builds) {
      for (const [label, args] of perBuild.get(build) ?? []) {
        first.set(
          `${build.label}|${label}`,
          timeOnce([build.bin, ...args], build.project, build.home),
        )
      }
    }
    const times = new Map<string, number[]>()
    const cpuTimes = new Map<string, number[]>()
    const record = (key: string, run: { ms: number; cpuMs: number }) => {
      times.set(key, [...(times.get(key) ?? []), run.ms])
      cpuTimes.set(key, [...(cpuTimes.get(key) ?? []), run.cpuMs])
    }
    for (let round = 0; round < RUNS; round++) {
      record('node -e 0', timeOnce(['-e', '0'], scratch, scratch))
      for (const build of builds) {
        for (const [label, args] of perBuild.get(build) ?? []) {
          record(
            `${build.label}|${label}`,
            timeOnce([build.bin, ...args], build.project, build.home),
          )
        }
      }
    }
    const node = median(times.get('node -e 0') ?? [])
    const nodeCpu = median(cpuTimes.get('node -e 0') ?? [])
    const tenth = (value: number) => Math.round(value * 10) / 10
    const rows = builds.flatMap((build) =>
      (perBuild.get(build) ?? []).map(([label]) => {
        const key = `${build.label}|${label}`
        const ms = median(times.get(key) ?? [])
        const cpuMs = median(cpuTimes.get(key) ?? [])
        return {
          build: build.label,
          command: label,
          medianMs: tenth(ms),
          ratio: Math.round((ms / node) * 100) / 100,
          cpuMs: tenth(cpuMs),
          cpuRatio: Math.round((cpuMs / nodeCpu) * 100) / 100,
          firstRunMs: tenth(first.get(key)?.ms ?? Number.NaN),
        }
      }),
    )
    const summary = {
      node: process.version,
      runs: RUNS,
      nodeMedianMs: tenth(node),
      nodeCpuMs: tenth(nodeCpu),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg().map((value) => value.toFixed(2)),
    }
    mkdirSync(dirname(RESULTS), { recursive: true })
    writeFileSync(
      RESULTS,
      `${JSON.stringify({ ...summary, rows, times: Object.fromEntries(times), cpuTimes: Object.fromEntries(cpuTimes) }, null, 2)}\n`,
    )
    const lines = [
      `\`node -e 0\`: ${summary.nodeMedianMs} ms wall, ${summary.nodeCpuMs} ms CPU (medians of ${RUNS}, in the same rounds). Load average ${loadAtStart.join(' ')} at the start, ${summary.loadAverageAtEnd.join(' ')} at the end; Node ${process.version}.`,
      '',
      '| build | command | wall ms | ratio to `node -e 0` | CPU ms | CPU ratio | first run (empty code cache), wall ms |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.build} | ${row.command} | ${row.medianMs} | ${bold(row.ratio)} | ${row.cpuMs} | ${bold(row.cpuRatio)} | ${row.firstRunMs} |`,
      ),
      '',
    ]
    process.stdout.write(lines.join('\n'))
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

await main()
