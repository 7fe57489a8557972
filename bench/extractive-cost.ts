/**
 * What the extractive model costs as its input grows, on text built from the real Claude Code
 * transcripts in ../shared at 100 KB, 1 MB and 10 MB:
 * - `summarize`: `somnus summarize <file> --ratio 0.2 --json` as installed (the built CLI, a fresh
 *   process each run), timed to its exit, with its peak RSS: the numbers the issue's targets are
 *   about (under 30 s and 300 MB at 10 MB);
 * - `summarize, one line`: the same text with every line break made a space, so the whole input is
 *   one line (a long line once cost its square in the sentence splitter);
 * - `observations`: `extractObservations` in a fresh process (tsx) on the text's units.
 *
 * The text is every user and assistant text block, tool call input and tool result of every main
 * and sub-agent transcript, one `user:` / `assistant:` paragraph per block, in file order, cut at
 * the target size (the three sessions give about 3 MB, so the 10 MB text repeats them).
 *
 * Run: `npx tsx bench/extractive-cost.ts` (or `npm run bench -- extractive-cost`); SOMNUS_BENCH_SIZES
 * overrides the sizes in KB (e.g. `100,1000`). Writes bench/results/extractive-cost.json and prints
 * a markdown table.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { textToUnits } from '../src/brain/app/summarize-text.ts'
import { extractObservations } from '../src/engine/core/extractive/observations.ts'
import { ensureBuilt, SOMNUS_BIN } from '../test/support/build-once.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'

/** Input sizes in KB (1 MB = 1,000 KB here, as the issue counts). */
const SIZES_KB = (process.env.SOMNUS_BENCH_SIZES ?? '100,1000,10000').split(',').map(Number)
const OPERATIONS = ['summarize', 'summarize, one line', 'observations'] as const
type Operation = (typeof OPERATIONS)[number]

const here = dirname(fileURLToPath(import.meta.url))

/** One timed run. */
interface Row {
  operation: Operation
  kilobytes: number
  seconds: number
  megabytesPerSecond: number
  peakMegabytes: number
  /** Seconds per MB relative to the smallest size's (1 = flat). */
  costPerMegabyteRatio?: number
  /** Units in, and what came out (summary tokens or observations). */
  units: number
  output: number
}

function transcriptFiles(folder: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((left, right) =>
    left.name.localeCompare(right.name),
  )) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) files.push(...transcriptFiles(path))
    else if (entry.name.endsWith('.jsonl')) files.push(path)
  }
  return files
}

function blockText(block: unknown): string {
  if (typeof block === 'string') return block
  if (!block || typeof block !== 'object') return ''
  const record = block as Record<string, unknown>
  if (typeof record.text === 'string') return record.text
  if (record.type === 'tool_use') return JSON.stringify(record.input ?? '')
  if (record.type === 'tool_result') {
    const content = record.content
    return Array.isArray(content) ? content.map(blockText).join('\n') : blockText(content)
  }
  return ''
}

/** The transcripts as `user:` / `assistant:` paragraphs, repeated until `bytes` long, then cut there. */
export function transcriptText(bytes: number): string {
  const paragraphs: string[] = []
  for (const file of transcriptFiles(TRANSCRIPTS_DIR)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue
      const record = JSON.parse(line) as { type?: string; message?: { content?: unknown } }
      if (record.type !== 'user' && record.type !== 'assistant') continue
      const content = record.message?.content
      const blocks = Array.isArray(content) ? content : [content]
      for (const block of blocks) {
        const text = blockText(block)
          .replace(/\n{2,}/g, '\n')
          .trim()
        if (text) paragraphs.push(`${record.type}: ${text}`)
      }
    }
  }
  const all = paragraphs.join('\n\n')
  let text = all
  while (Buffer.byteLength(text) < bytes) text += `\n\n${all}`
  return Buffer.from(text)
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '')
}

/** `extractObservations` in this process; prints its row as JSON. */
function measureObservations(kilobytes: number): void {
  const units = textToUnits(transcriptText(kilobytes * 1000))
  const started = performance.now()
  const output = extractObservations(units.map(({ line: _line, ...unit }) => unit)).length
  const seconds = (performance.now() - started) / 1000
  const row: Row = {
    operation: 'observations',
    kilobytes,
    seconds,
    megabytesPerSecond: kilobytes / 1000 / seconds,
    peakMegabytes: process.resourceUsage().maxRSS / 1024,
    units: units.length,
    output,
  }
  process.stdout.write(`${JSON.stringify(row)}\n`)
}

/** Preloaded into the CLI: prints its peak RSS (KB) on stderr as it exits. */
const PEAK_PROBE =
  "process.on('exit', () => process.stderr.write('\\npeak-rss-kb ' + process.resourceUsage().maxRSS + '\\n'))"

/** `somnus summarize <file> --ratio 0.2 --json` as installed, in a fresh process. */
function measureSummarize(operation: Operation, kilobytes: number, folder: string): Row {
  const built = transcriptText(kilobytes * 1000)
  const text = operation === 'summarize, one line' ? built.replace(/\n+/g, ' ') : built
  const file = join(folder, `${kilobytes}.txt`)
  writeFileSync(file, text)
  const probe = join(folder, 'peak-probe.cjs')
  writeFileSync(probe, PEAK_PROBE)
  const started = performance.now()
  const run = spawnSync(
    process.execPath,
    ['-r', probe, SOMNUS_BIN, 'summarize', file, '--ratio', '0.2', '--json'],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  )
  const seconds = (performance.now() - started) / 1000
  if (run.status !== 0) throw new Error(`${operation} ${kilobytes} KB failed: ${run.stderr}`)
  const peak = Number(/peak-rss-kb (\d+)/.exec(run.stderr)?.[1])
  return {
    operation,
    kilobytes,
    seconds,
    megabytesPerSecond: kilobytes / 1000 / seconds,
    peakMegabytes: peak / 1024,
    units: textToUnits(text).length,
    output: (JSON.parse(run.stdout) as { tokens_after: number }).tokens_after,
  }
}

async function main(): Promise<void> {
  if (!HAS_SHARED) {
    process.stdout.write(`skipped: ${SHARED_SKIP_REASON}\n`)
    return
  }
  await ensureBuilt()
  const folder = mkdtempSync(join(tmpdir(), 'somnus-bench-extractive-'))
  const rows: Row[] = []
  try {
    for (const operation of OPERATIONS) {
      for (const kilobytes of SIZES_KB) {
        const row =
          operation === 'observations'
            ? observationsInChild(kilobytes)
            : measureSummarize(operation, kilobytes, folder)
        const first = rows.find((other) => other.operation === operation)
        row.costPerMegabyteRatio = first
          ? row.seconds / row.kilobytes / (first.seconds / first.kilobytes)
          : 1
        rows.push(row)
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  mkdirSync(join(here, 'results'), { recursive: true })
  writeFileSync(join(here, 'results/extractive-cost.json'), `${JSON.stringify(rows, null, 2)}\n`)
  process.stdout.write(
    '| operation | input | units | seconds | MB/s | peak RSS | cost per MB vs 100 KB |\n|---|---|---|---|---|---|---|\n',
  )
  for (const row of rows) {
    process.stdout.write(
      `| ${row.operation} | ${row.kilobytes >= 1000 ? `${row.kilobytes / 1000} MB` : `${row.kilobytes} KB`} | ${row.units.toLocaleString('en')} | ${row.seconds.toFixed(2)} | ${row.megabytesPerSecond.toFixed(2)} | ${row.peakMegabytes.toFixed(0)} MB | ${row.costPerMegabyteRatio?.toFixed(2)} |\n`,
    )
  }
}

/** `measureObservations` in a fresh process, so its peak RSS is its own. */
function observationsInChild(kilobytes: number): Row {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), 'observations', String(kilobytes)],
    { encoding: 'utf8', cwd: join(here, '..'), maxBuffer: 1 << 20 },
  )
  if (run.status !== 0) throw new Error(`observations ${kilobytes} KB failed: ${run.stderr}`)
  return JSON.parse(run.stdout.trim()) as Row
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [operation, kilobytes] = process.argv.slice(2)
  if (operation === 'observations' && kilobytes) measureObservations(Number(kilobytes))
  else await main()
}
