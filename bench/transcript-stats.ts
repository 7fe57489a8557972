/**
 * How fast `transcript stats` reads a big transcript, against `grep -c` and the seed's regex.
 *
 * Builds a ~200 MB transcript in a temp folder from the real Claude Code transcripts in
 * ../shared (every main and sub-agent file, repeated; tool_use and message ids rewritten per copy so
 * the counts stay meaningful), warms the page cache, then times on the same file:
 * - ours, the fs adapter + analyzer: in a fresh process (cold JIT: what one CLI call pays), both
 *   bundled to JavaScript (as installed) and through tsx; and the best of 3 runs in this process;
 * - `grep -c '"type":"tool_use"'` (best of 3);
 * - the seed's approach (agentcontext): the whole file read as one string, then
 *   `/"name"\s*:\s*"(?:Write|Edit)"/g` and `/"name"\s*:\s*"[A-Za-z_]+"/g` (best of 2);
 * and wall time and peak RSS (/usr/bin/time -v) of `somnus transcript stats <file> --json`.
 *
 * Run: `npx tsx bench/transcript-stats.ts` (or `npm run bench -- transcript-stats`).
 * Writes bench/results/transcript-stats.json and prints a markdown table.
 */
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { analyzeTranscriptFile } from '../src/adapters/fs/transcript-files.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'

/** Size of the generated transcript. */
export const TARGET_BYTES = 200 * 1024 * 1024

const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, '..')

/** One timed reader. */
export interface Row {
  reader: string
  seconds: number
  megabytesPerSecond: number
  /** Throughput relative to grep's (1 = as fast as grep). */
  vsGrep: number
  /** What it counted: tool calls for ours and the seed, matching lines for grep. */
  count: number
  /** Peak resident memory of the process, when it ran in its own (MB). */
  peakMegabytes: number | null
}

/** Builds the transcript, times every reader, prints and saves the table. */
export async function main(): Promise<Row[]> {
  if (!HAS_SHARED) {
    process.stdout.write(`skipped: ${SHARED_SKIP_REASON}\n`)
    return []
  }
  const folder = mkdtempSync(join(tmpdir(), 'somnus-bench-transcript-'))
  try {
    const started = performance.now()
    const file = join(folder, 'big-session.jsonl')
    const bytes = buildTranscript(file)
    const programs = await buildPrograms(folder)
    spawnSync('cat', [file], { stdio: 'ignore' }) // page cache warm: every reader reads from memory
    const node = process.execPath
    const coldBundled = timedChild([node, programs.analyzer, file])
    const coldTsx = timedChild([node, '--import', 'tsx', programs.analyzerSource, file])
    const warm = await best(3, async () => (await analyzeTranscriptFile(file))?.tool_count ?? -1)
    const grep = await best(3, async () => grepCount(file))
    const seed = await best(2, async () => seedCount(file))
    const args = ['transcript', 'stats', file, '--json']
    const cliBundled = timedChild([node, programs.cli, ...args])
    const cliTsx = timedChild([node, '--import', 'tsx', 'src/surfaces/cli/main.ts', ...args])
    const toolCount = (run: ChildRun) =>
      (JSON.parse(run.stdout) as { tool_count: number }).tool_count

    const megabytes = bytes / (1024 * 1024)
    const grepRate = megabytes / grep.seconds
    const row = (reader: string, seconds: number, count: number, peak: number | null): Row => ({
      reader,
      seconds: round(seconds, 3),
      megabytesPerSecond: Math.round(megabytes / seconds),
      vsGrep: round(megabytes / seconds / grepRate, 2),
      count,
      peakMegabytes: peak,
    })
    const rows = [
      row(
        'somnus analyzer, fresh process, bundled JS (cold JIT)',
        coldBundled.seconds,
        coldBundled.toolCount,
        coldBundled.peakMegabytes,
      ),
      row(
        'somnus analyzer, fresh process, through tsx (cold JIT)',
        coldTsx.seconds,
        coldTsx.toolCount,
        coldTsx.peakMegabytes,
      ),
      row('somnus analyzer, best of 3 in one process (warm JIT)', warm.seconds, warm.value, null),
      row(`grep -c '"type":"tool_use"' (matching lines)`, grep.seconds, grep.value, null),
      row('seed: whole file as a string + "name" regex', seed.seconds, seed.value.tools, null),
      row(
        '`somnus transcript stats --json`, bundled, whole process',
        cliBundled.wallSeconds,
        toolCount(cliBundled),
        cliBundled.peakMegabytes,
      ),
      row(
        '`somnus transcript stats --json`, tsx, whole process',
        cliTsx.wallSeconds,
        toolCount(cliTsx),
        cliTsx.peakMegabytes,
      ),
    ]
    const summary = {
      file_bytes: bytes,
      file_megabytes: round(megabytes, 1),
      seed_change_count: seed.value.changes,
      node: process.version,
      cpus: cpus().length,
      load_average: loadavg().map((value) => round(value, 2)),
      seconds: round((performance.now() - started) / 1000, 1),
    }
    const out = join(here, 'results/transcript-stats.json')
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, `${JSON.stringify({ ...summary, rows }, null, 2)}\n`)
    process.stdout.write(table(rows, summary))
    return rows
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Writes copies of every real transcript until the file reaches TARGET_BYTES; returns its size. */
function buildTranscript(file: string): number {
  const sources = readdirSync(TRANSCRIPTS_DIR, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => readFileSync(join(TRANSCRIPTS_DIR, name), 'utf8'))
    .map((text) => (text.endsWith('\n') ? text : `${text}\n`))
  const descriptor = openSync(file, 'w')
  let written = 0
  try {
    for (let copy = 0; written < TARGET_BYTES; copy++) {
      for (const text of sources) {
        // New ids per copy: a tool call and its result stay paired, and no copy repeats another.
        const renamed = text
          .replaceAll('toolu_', `toolu_c${copy}_`)
          .replaceAll('"msg_', `"msg_c${copy}_`)
        written += writeSync(descriptor, renamed)
      }
    }
  } finally {
    closeSync(descriptor)
  }
  return written
}

/**
 * The programs the children run: a one-shot analyzer (TypeScript, and bundled) and the CLI bundled
 * with code splitting, as installed: each command's code loads only when that command runs.
 */
async function buildPrograms(
  folder: string,
): Promise<{ analyzerSource: string; analyzer: string; cli: string }> {
  const analyzerSource = join(folder, 'cold-analysis.mts')
  writeFileSync(
    analyzerSource,
    `import { analyzeTranscriptFile } from ${JSON.stringify(join(repo, 'src/adapters/fs/transcript-files.ts'))}
const started = performance.now()
const analysis = await analyzeTranscriptFile(process.argv[2] as string)
const seconds = (performance.now() - started) / 1000
process.stdout.write(JSON.stringify({ seconds, toolCount: analysis?.tool_count ?? -1 }))
`,
  )
  const outdir = join(folder, 'programs')
  await build({
    entryPoints: { analyzer: analyzerSource, cli: join(repo, 'src/surfaces/cli/main.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  })
  return { analyzerSource, analyzer: join(outdir, 'analyzer.mjs'), cli: join(outdir, 'cli.mjs') }
}

/** A child's output, wall time, peak memory and, for the analyzer, its own timing. */
interface ChildRun {
  stdout: string
  wallSeconds: number
  peakMegabytes: number
  seconds: number
  toolCount: number
}

/** Runs `command` under /usr/bin/time -v (a child's own getrusage would inherit our peak). */
function timedChild(command: string[]): ChildRun {
  const started = performance.now()
  const child = spawnSync('/usr/bin/time', ['-v', ...command], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  })
  const wallSeconds = (performance.now() - started) / 1000
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(child.stderr)
  if (child.status !== 0 || peak === null)
    throw new Error(`${command.join(' ')} failed: ${child.stderr}`)
  const own = /^\{"seconds":/.test(child.stdout)
    ? (JSON.parse(child.stdout) as { seconds: number; toolCount: number })
    : { seconds: wallSeconds, toolCount: -1 }
  return {
    stdout: child.stdout,
    wallSeconds,
    peakMegabytes: Math.round(Number(peak[1]) / 1024),
    ...own,
  }
}

function grepCount(file: string): number {
  const run = spawnSync('grep', ['-c', '"type":"tool_use"', file], { encoding: 'utf8' })
  return Number(run.stdout.trim())
}

/** agentcontext's analyzeTranscript: the whole file as a string, two global regexes. */
function seedCount(file: string): { changes: number; tools: number } {
  const content = readFileSync(file, 'utf8')
  const changes = content.match(/"name"\s*:\s*"(?:Write|Edit)"/g)?.length ?? 0
  const tools = content.match(/"name"\s*:\s*"[A-Za-z_]+"/g)?.length ?? 0
  return { changes, tools }
}

async function best<T>(
  runs: number,
  measure: () => Promise<T>,
): Promise<{ seconds: number; value: T }> {
  let fastest = Number.POSITIVE_INFINITY
  let value: T | undefined
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    value = await measure()
    fastest = Math.min(fastest, (performance.now() - started) / 1000)
  }
  return { seconds: fastest, value: value as T }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

function table(
  rows: readonly Row[],
  summary: {
    file_megabytes: number
    seed_change_count: number
    load_average: number[]
    seconds: number
  },
): string {
  return [
    `Transcript of ${summary.file_megabytes} MB (real Claude Code records, repeated with fresh ids). Load average ${summary.load_average.join(' ')}; ${summary.seconds} s in all.`,
    '',
    '| reader | seconds | MB/s | vs grep | count | peak RSS MB |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.reader} | ${row.seconds} | ${row.megabytesPerSecond} | ${row.vsGrep} | ${row.count} | ${row.peakMegabytes ?? ''} |`,
    ),
    '',
    `Counts: ours are tool_use blocks of assistant records, each id once; grep counts lines (progress records embed sub-agent tool calls); the seed's regex counts every "name" field (and found ${summary.seed_change_count} Write/Edit).`,
    '',
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
