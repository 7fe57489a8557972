/**
 * What the extractive model costs as its input grows: `somnus summarize --ratio 0.2` (the
 * extractive model through `summarizeText`) and `extractObservations`, on text built from the real
 * Claude Code transcripts in ../shared at 100 KB, 1 MB and 10 MB.
 *
 * The text is every user and assistant text block, tool call input and tool result of every main
 * and sub-agent transcript, one `user:` / `assistant:` paragraph per block, in file order, cut at
 * the target size (the three sessions give about 3 MB, so the 10 MB text repeats them).
 * Each (operation, size) runs in a fresh process, so its peak RSS (`maxRSS`) is its own.
 *
 * Run: `npx tsx bench/extractive-cost.ts` (or `npm run bench -- extractive-cost`); SOMNUS_BENCH_SIZES
 * overrides the sizes in KB (e.g. `100,1000`). Writes bench/results/extractive-cost.json and prints
 * a markdown table.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createExtractiveLanguageModel } from '../src/adapters/llm/extractive-language-model.ts'
import { summarizeText, textToUnits } from '../src/app/summarize-text.ts'
import { extractObservations } from '../src/core/extractive/observations.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'

/** Input sizes in KB (1 MB = 1,000 KB here, as the issue counts). */
const SIZES_KB = (process.env.SOMNUS_BENCH_SIZES ?? '100,1000,10000').split(',').map(Number)
const OPERATIONS = ['summarize', 'observations'] as const
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

/** Runs one operation in this process and prints its row as JSON. */
async function measure(operation: Operation, kilobytes: number): Promise<void> {
  const text = transcriptText(kilobytes * 1000)
  const units = textToUnits(text)
  const started = performance.now()
  let output: number
  if (operation === 'summarize') {
    const result = await summarizeText({ text, ratio: 0.2, model: createExtractiveLanguageModel() })
    output = result.tokens_after
  } else {
    output = extractObservations(units.map(({ line: _line, ...unit }) => unit)).length
  }
  const seconds = (performance.now() - started) / 1000
  const row: Row = {
    operation,
    kilobytes,
    seconds,
    megabytesPerSecond: kilobytes / 1000 / seconds,
    peakMegabytes: process.resourceUsage().maxRSS / 1024,
    units: units.length,
    output,
  }
  process.stdout.write(`${JSON.stringify(row)}\n`)
}

function main(): void {
  if (!HAS_SHARED) {
    process.stdout.write(`skipped: ${SHARED_SKIP_REASON}\n`)
    return
  }
  const rows: Row[] = []
  for (const operation of OPERATIONS) {
    for (const kilobytes of SIZES_KB) {
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(import.meta.url), operation, String(kilobytes)],
        { encoding: 'utf8', cwd: join(here, '..'), maxBuffer: 1 << 20 },
      )
      if (run.status !== 0) throw new Error(`${operation} ${kilobytes} KB failed: ${run.stderr}`)
      const row = JSON.parse(run.stdout.trim()) as Row
      const first = rows.find((other) => other.operation === operation)
      row.costPerMegabyteRatio = first
        ? row.seconds / row.kilobytes / (first.seconds / first.kilobytes)
        : 1
      rows.push(row)
    }
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [operation, kilobytes] = process.argv.slice(2)
  if (operation && kilobytes) await measure(operation as Operation, Number(kilobytes))
  else main()
}
