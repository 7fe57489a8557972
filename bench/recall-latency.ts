/**
 * What recall costs, as a user's processes pay it (the built CLI and hook, each run a fresh
 * process; times are wall clock, memory is the peak RSS from /usr/bin/time):
 * - `somnus recall` p50/p99 over 40 queries on a 1,000-session brain (1,000 session digests made
 *   from the three real ones, the real transcripts on disk), after the index is built;
 * - the index build: from nothing (what the first recall or sleep run pays), and after one new
 *   digest (what a sleep run pays: only changed files are read);
 * - the prompt hook (UserPromptSubmit with recall) as a ratio to a bare `node -e 0`, the two run
 *   in turn, on the real 3-session brain and on the 1,000-session one (target <= 2x);
 * - a creature at 200,000 conversation lines (LoCoMo turns): `somnus mind recall` once the index
 *   exists, and after 100 new lines (target < 1 s and < 200 MB).
 *
 * Run: `npm run bench -- recall-latency`. Results: bench/results/recall-latency.json.
 */
import { spawnSync } from 'node:child_process'
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBuilt, HOOK_ENTRY, SOMNUS_BIN } from '../test/support/build-once.ts'
import { loadConversation } from './locomo-data.ts'
import { buildRecallBrain, type RecallBrain } from './support/recall-brain.ts'

const here = dirname(fileURLToPath(import.meta.url))
const SHARED = process.env.SOMNUS_SHARED_DIR ?? join(here, '../../shared')
const DATASET = join(SHARED, 'datasets/claude-code-transcripts')
const LOCOMO = join(SHARED, 'datasets/locomo-dev')
const RESULTS = join(here, 'results', 'recall-latency.json')
const QUERIES = (
  JSON.parse(readFileSync(join(here, 'data/recall-questions.json'), 'utf8')) as {
    questions: { question: string }[]
  }
).questions.map((q) => q.question)

/** One timed process: wall seconds and peak RSS in MB. */
function timed(
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; input?: string },
) {
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', process.execPath, ...args], {
    cwd: options.cwd,
    env: options.env,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  const [seconds, kb, user, system] = (run.stderr.trim().split('\n').at(-1) ?? '')
    .split(' ')
    .map(Number)
  return {
    ms: (seconds ?? 0) * 1000,
    mb: (kb ?? 0) / 1024,
    cpuMs: ((user ?? 0) + (system ?? 0)) * 1000,
    stdout: run.stdout,
  }
}

/** Wall milliseconds of one process, measured here (finer than /usr/bin/time's 10 ms). */
function wall(
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; input?: string },
): number {
  const started = process.hrtime.bigint()
  const run = spawnSync(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    input: options.input ?? '',
  })
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}`)
  return Number(process.hrtime.bigint() - started) / 1e6
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0
}
const median = (values: number[]) => percentile(values, 0.5)
const round = (value: number, digits = 1) => Number(value.toFixed(digits))

/** Grows the real brain to `sessions` digests: each real digest copied under new dates and ids. */
function growDigests(brain: RecallBrain, sessions: number): void {
  const folder = join(brain.project, '_agent_context', 'knowledge', 'sessions')
  const real = readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'))
  for (let index = real.length; index < sessions; index += 1) {
    const day = new Date(Date.UTC(2024, 0, 1) + index * 86_400_000).toISOString().slice(0, 10)
    const id = `${index.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`
    const text = (real[index % real.length] ?? '')
      .replace(/^session: .*$/m, `session: ${id}`)
      .replace(/^date: .*$/m, `date: ${day}`)
      .replace(/^(- .*?)( <!--|$)/gm, `$1 (run ${index})$2`)
    writeFileSync(join(folder, `${day}-${id.slice(0, 8)}.md`), text)
  }
}

/**
 * A preload that writes the process's own CPU time (user + system, all threads, microseconds,
 * from getrusage) to the file named by SOMNUS_BENCH_CPU_FILE as it exits. /usr/bin/time counts in
 * 10 ms steps, coarser than the ~20 ms `node -e 0` costs; the preload is paid alike by both.
 */
const CPU_PRELOAD = `process.on('exit', () => {
  const usage = process.cpuUsage()
  require('node:fs').writeFileSync(process.env.SOMNUS_BENCH_CPU_FILE, String(usage.user + usage.system))
})
`

/** CPU seconds (user + system) of one process, as it counted them: less swayed by a busy machine. */
function cpu(
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined>; input?: string },
): number {
  const folder = mkdtempSync(join(tmpdir(), 'somnus-bench-cpu-'))
  try {
    const preload = join(folder, 'cpu.cjs')
    const out = join(folder, 'cpu.txt')
    writeFileSync(preload, CPU_PRELOAD)
    const run = spawnSync(process.execPath, ['--require', preload, ...args], {
      cwd: options.cwd,
      env: { ...options.env, SOMNUS_BENCH_CPU_FILE: out },
      input: options.input ?? '',
    })
    if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}`)
    return Number(readFileSync(out, 'utf8')) / 1e6
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Hook runtime over bare node, the two run in turn `rounds` times; medians of each. */
function hookRatio(brain: RecallBrain, rounds: number) {
  const payload = JSON.stringify({
    session_id: 'bench',
    cwd: brain.project,
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Why did the SQLite migration fail, and how was the ALTER TABLE problem fixed?',
  })
  const options = { cwd: brain.project, env: brain.env, input: payload }
  const out = spawnSync(process.execPath, [HOOK_ENTRY, 'user-prompt-submit'], {
    ...options,
    encoding: 'utf8',
  }).stdout
  const hook: number[] = []
  const node: number[] = []
  const hookCpu: number[] = []
  const nodeCpu: number[] = []
  for (let round = 0; round < rounds; round += 1) {
    node.push(wall(['-e', '0'], options))
    hook.push(wall([HOOK_ENTRY, 'user-prompt-submit'], options))
    nodeCpu.push(cpu(['-e', '0'], options))
    hookCpu.push(cpu([HOOK_ENTRY, 'user-prompt-submit'], options))
  }
  return {
    cpu_ratio: round(median(hookCpu) / Math.max(0.001, median(nodeCpu)), 2),
    hook_cpu_ms: round(median(hookCpu) * 1000),
    node_cpu_ms: round(median(nodeCpu) * 1000),
    hook_ms: round(median(hook)),
    node_ms: round(median(node)),
    ratio: round(median(hook) / median(node), 2),
    printed_chars: out.length,
  }
}

/** A creature with `lines` conversation lines of LoCoMo turns. */
function bigCreature(lines: number): { folder: string; cwd: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'somnus-recall-mind-'))
  const folder = join(cwd, '.self')
  mkdirSync(folder)
  const turns = readdirSync(LOCOMO)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) =>
      loadConversation(join(LOCOMO, name)).sessions.flatMap((session) =>
        session.units.map((unit) => `${unit.speaker ?? 'someone'}: ${unit.text}`),
      ),
    )
  const chunk: string[] = []
  const path = join(folder, 'conversation.jsonl')
  for (let index = 0; index < lines; index += 1) {
    const t = new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString()
    chunk.push(
      JSON.stringify({
        t,
        role: index % 2 ? 'assistant' : 'user',
        content: `${turns[index % turns.length]} (${index})`,
      }),
    )
    if (chunk.length === 10_000) {
      appendFileSync(path, `${chunk.join('\n')}\n`)
      chunk.length = 0
    }
  }
  if (chunk.length > 0) appendFileSync(path, `${chunk.join('\n')}\n`)
  return { folder, cwd }
}

async function main() {
  if (!existsSync(DATASET) || !existsSync(LOCOMO)) {
    process.stdout.write(
      'skipped: ../shared/datasets not found (clone the project beside ../shared)\n',
    )
    return
  }
  await ensureBuilt()
  const small = buildRecallBrain(DATASET)
  const large = buildRecallBrain(DATASET)
  const cleanup: string[] = [small.project, small.home, large.project, large.home]
  try {
    const recall = (brain: RecallBrain, query: string) =>
      timed([SOMNUS_BIN, 'recall', query, '--json'], { cwd: brain.project, env: brain.env })
    recall(small, 'warm up the small brain index')
    const promptSmall = hookRatio(small, 15)

    growDigests(large, 1000)
    const build = recall(large, 'build the index')
    const queries = QUERIES.map((query) => recall(large, query))
    const times = queries.map((run) => run.ms)
    const day = '2027-01-01'
    cpSync(
      join(
        large.project,
        '_agent_context',
        'knowledge',
        'sessions',
        readdirSync(join(large.project, '_agent_context', 'knowledge', 'sessions'))[0] ?? '',
      ),
      join(large.project, '_agent_context', 'knowledge', 'sessions', `${day}-ffffffff.md`),
    )
    const incremental = recall(large, 'after one new digest')
    const promptLarge = hookRatio(large, 15)
    // Every file of a shelf (manifest, stamps, ids, segments), not only its manifest.
    const shelfMb = (shelf: string) => {
      const state = join(large.project, '_agent_context', 'state')
      return (
        readdirSync(state)
          .filter((name) => name.startsWith(`.recall-${shelf}.`))
          .reduce((sum, name) => sum + statSync(join(state, name)).size, 0) /
        1024 /
        1024
      )
    }
    const brainIndexMb = shelfMb('brain')
    const transcriptIndexMb = shelfMb('transcripts')

    const creature = bigCreature(200_000)
    cleanup.push(creature.cwd)
    const mind = (query: string) =>
      timed([SOMNUS_BIN, 'mind', 'recall', query, '--dir', creature.folder], {
        cwd: creature.cwd,
        env: { PATH: process.env.PATH },
      })
    const firstBuild = mind('camping trip')
    const warm = [
      'camping trip with the kids',
      'adoption agency interview',
      'painting a sunset',
      'charity race for mental health',
      'pottery class',
    ].map(mind)
    const more = Array.from({ length: 100 }, (_, index) =>
      JSON.stringify({
        t: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
        role: 'user',
        content: `A new line about the lighthouse visit ${index}`,
      }),
    )
    appendFileSync(join(creature.folder, 'conversation.jsonl'), `${more.join('\n')}\n`)
    const afterAppend = mind('lighthouse visit')

    const result = {
      brain_1000: {
        digests: 1000,
        build_from_nothing_ms: round(build.ms),
        build_peak_mb: round(build.mb),
        after_one_new_digest_ms: round(incremental.ms),
        recall_p50_ms: round(median(times)),
        recall_p99_ms: round(percentile(times, 0.99)),
        recall_peak_mb: round(Math.max(...queries.map((run) => run.mb))),
        index_mb: { brain: round(brainIndexMb, 2), transcripts: round(transcriptIndexMb, 2) },
      },
      prompt_hook: {
        brain_3_sessions: promptSmall,
        brain_1000_sessions: promptLarge,
        target_ratio: 2,
      },
      creature_200k: {
        lines: 200_000,
        first_query_builds_index_ms: round(firstBuild.ms),
        first_query_peak_mb: round(firstBuild.mb),
        query_p50_ms: round(median(warm.map((run) => run.ms))),
        query_p50_cpu_ms: round(median(warm.map((run) => run.cpuMs))),
        first_query_cpu_ms: round(firstBuild.cpuMs),
        query_peak_mb: round(Math.max(...warm.map((run) => run.mb))),
        after_100_new_lines_ms: round(afterAppend.ms),
        after_100_new_lines_peak_mb: round(afterAppend.mb),
        found_new_line: afterAppend.stdout.includes('lighthouse'),
        targets: { ms: 1000, mb: 200 },
      },
    }
    mkdirSync(dirname(RESULTS), { recursive: true })
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
    const b = result.brain_1000
    const c = result.creature_200k
    process.stdout.write(
      [
        '| measure | value |',
        '|---|---|',
        `| somnus recall, 1,000-session brain: p50 / p99 | ${b.recall_p50_ms} / ${b.recall_p99_ms} ms (peak ${b.recall_peak_mb} MB) |`,
        `| index build from nothing (1,000 digests + 3 transcripts) | ${b.build_from_nothing_ms} ms (peak ${b.build_peak_mb} MB); index files ${b.index_mb.brain} + ${b.index_mb.transcripts} MB |`,
        `| index update after one new digest (what a sleep run pays) | ${b.after_one_new_digest_ms} ms |`,
        `| prompt hook / node -e 0, 3-session brain | ${promptSmall.ratio}x (${promptSmall.hook_ms} / ${promptSmall.node_ms} ms); CPU ${promptSmall.cpu_ratio}x (${promptSmall.hook_cpu_ms} / ${promptSmall.node_cpu_ms} ms) |`,
        `| prompt hook / node -e 0, 1,000-session brain | ${promptLarge.ratio}x (${promptLarge.hook_ms} / ${promptLarge.node_ms} ms); CPU ${promptLarge.cpu_ratio}x (${promptLarge.hook_cpu_ms} / ${promptLarge.node_cpu_ms} ms) |`,
        `| creature 200k lines: first query (builds the index) | ${c.first_query_builds_index_ms} ms (CPU ${c.first_query_cpu_ms} ms), ${c.first_query_peak_mb} MB |`,
        `| creature 200k lines: query p50 | ${c.query_p50_ms} ms (CPU ${c.query_p50_cpu_ms} ms), peak ${c.query_peak_mb} MB |`,
        `| creature 200k lines: after 100 new lines | ${c.after_100_new_lines_ms} ms, ${c.after_100_new_lines_peak_mb} MB (new line found: ${c.found_new_line}) |`,
        '',
      ].join('\n'),
    )
  } finally {
    for (const path of cleanup) rmSync(path, { recursive: true, force: true })
  }
}

await main()
