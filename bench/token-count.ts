/**
 * Token counting's cost per MB from 1 KB to 10 MB (issue 23): `countTokens` must stay linear in
 * its input for any text, where gpt-tokenizer's BPE is quadratic in a piece with no spaces.
 *
 * Four kinds of text, each counted in its own process (so one kind's table of known pieces and
 * peak memory never colour another's):
 * - prose: the LoCoMo conversations' turns (`speaker: text`), repeated;
 * - code: this repository's TypeScript sources, repeated;
 * - base64: seeded pseudo-random bytes in base64, one line (as images and blobs sit in tool output);
 * - one letter: `a` repeated, a single piece the size of the text.
 * Each measurement counts about 1 MB of windows of one size (one window from 1 MB up) taken at
 * different offsets of a 12 MB text, after a 256 KB warm-up; ROUNDS rounds measure every size
 * once each, so a busy spell hits all sizes alike, and the median is reported. gpt-tokenizer's
 * own `countTokens` runs on windows of each size while it stays affordable: its quadratic is the
 * cost this counter avoids.
 *
 * Run: `npx tsx bench/token-count.ts` (or `npm run bench -- token-count`). Prints a markdown table.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base'
import { countTokens } from '../src/engine/core/tokens.ts'
import { LOCOMO_DIR, REPO_ROOT } from '../test/support/shared-data.ts'

const KINDS = ['prose', 'code', 'base64', 'one letter'] as const
type Kind = (typeof KINDS)[number]
const SIZES = [1_024, 10_240, 102_400, 1_048_576, 10_485_760]
const SOURCE_LENGTH = 12 * 1_048_576
/** The library is timed at a size only while its previous size took less than this. */
const LIBRARY_BUDGET_MS = 250

/** One size's figures for one kind. */
interface Measure {
  bytes: number
  runs: number
  oursMs: number
  oursMsPerMb: number
  libraryMsPerMb: number | null
  tokens: number
}

/** One kind's figures, from its own process. */
interface KindResult {
  kind: Kind
  measures: Measure[]
  peakMegabytes: number
}

function sourceText(kind: Kind): string {
  if (kind === 'one letter') return 'a'.repeat(SOURCE_LENGTH)
  if (kind === 'base64') {
    const bytes = Buffer.alloc(Math.ceil((SOURCE_LENGTH * 3) / 4))
    let seed = 23
    for (let index = 0; index < bytes.length; index++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      bytes[index] = seed >>> 24
    }
    return bytes.toString('base64').slice(0, SOURCE_LENGTH)
  }
  const parts = kind === 'prose' ? proseParts() : codeParts()
  const base = parts.join('\n')
  return base.repeat(Math.ceil(SOURCE_LENGTH / base.length)).slice(0, SOURCE_LENGTH)
}

function proseParts(): string[] {
  const turns: string[] = []
  for (const name of readdirSync(LOCOMO_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const conversation = JSON.parse(readFileSync(join(LOCOMO_DIR, name), 'utf8')) as Record<
      string,
      unknown
    >
    for (const value of Object.values(conversation)) {
      if (!Array.isArray(value)) continue
      for (const turn of value as Array<{ speaker?: string; text?: string }>) {
        if (turn.text) turns.push(`${turn.speaker}: ${turn.text}`)
      }
    }
  }
  return turns
}

function codeParts(): string[] {
  const folder = join(REPO_ROOT, 'src')
  return readdirSync(folder, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => readFileSync(join(folder, name), 'utf8'))
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}

/** Times `count` on windows of `bytes` characters at different offsets; the median in ms. */
function timeWindows(
  source: string,
  bytes: number,
  count: (text: string) => number,
  minimumRuns: number,
): { ms: number; runs: number; tokens: number } {
  const times: number[] = []
  let tokens = 0
  let total = 0
  for (let run = 0; run < minimumRuns || (total < 300 && run < 200); run++) {
    const offset = ((run * 7_919 * 131) % Math.max(1, source.length - bytes)) | 0
    const text = source.slice(offset, offset + bytes)
    const started = performance.now()
    tokens = count(text)
    const elapsed = performance.now() - started
    times.push(elapsed)
    total += elapsed
  }
  return { ms: median(times), runs: times.length, tokens }
}

/** gpt-tokenizer's count with special tokens read as text, as `countTokens` reads them. */
function ordinaryLibraryCount(text: string): number {
  return libraryCount(text, { disallowedSpecial: new Set() })
}

/** Rounds in which every size is counted once, so a busy spell on the machine hits all alike. */
const ROUNDS = Number(process.env.SOMNUS_BENCH_ROUNDS ?? 5)

/**
 * Milliseconds per MB of one measurement: windows of `bytes` characters at different offsets,
 * as many as make about 1 MB (one for larger sizes), counted back to back.
 */
function msPerMegabyte(
  source: string,
  bytes: number,
  round: number,
): { msPerMb: number; tokens: number } {
  const windows = Math.max(1, Math.floor(1_048_576 / bytes))
  const texts = Array.from({ length: windows }, (_, index) => {
    const offset = ((round * windows + index) * 7_919 * 131) % Math.max(1, source.length - bytes)
    return source.slice(offset, offset + bytes)
  })
  let tokens = 0
  const started = performance.now()
  for (const text of texts) tokens = countTokens(text)
  const elapsed = performance.now() - started
  return { msPerMb: elapsed / ((windows * bytes) / 1_048_576), tokens }
}

/** The child: every size of one kind. */
function measureKind(kind: Kind): KindResult {
  const source = sourceText(kind)
  countTokens(source.slice(SOURCE_LENGTH - 262_144)) // warm-up: JIT, and the table of pieces
  const costs = SIZES.map(() => [] as number[])
  const tokens = SIZES.map(() => 0)
  for (let round = 0; round < ROUNDS; round++) {
    SIZES.forEach((bytes, index) => {
      const measured = msPerMegabyte(source, bytes, round)
      costs[index]?.push(measured.msPerMb)
      tokens[index] = measured.tokens
    })
  }
  const measures: Measure[] = []
  let libraryAffordable = true
  SIZES.forEach((bytes, index) => {
    const megabytes = bytes / 1_048_576
    let libraryMsPerMb: number | null = null
    if (libraryAffordable) {
      const library = timeWindows(source, bytes, ordinaryLibraryCount, 1)
      libraryMsPerMb = library.ms / megabytes
      libraryAffordable = library.ms < LIBRARY_BUDGET_MS
    }
    const oursMsPerMb = median(costs[index] ?? [])
    measures.push({
      bytes,
      runs: ROUNDS,
      oursMs: oursMsPerMb * megabytes,
      oursMsPerMb,
      libraryMsPerMb,
      tokens: tokens[index] ?? 0,
    })
  })
  return { kind, measures, peakMegabytes: Math.round(process.resourceUsage().maxRSS / 1024) }
}

function sizeLabel(bytes: number): string {
  return bytes >= 1_048_576 ? `${bytes / 1_048_576} MB` : `${bytes / 1_024} KB`
}

function figure(value: number | null): string {
  if (value === null) return '–'
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1)
}

/** The parent: one child per kind, one after the other, then the table. */
function main(): void {
  const loadAtStart = loadavg().map((value) => value.toFixed(2))
  const results: KindResult[] = []
  for (const kind of KINDS) {
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--kind', kind],
      { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 16 * 1_048_576 },
    )
    if (child.status !== 0) throw new Error(`token-count ${kind} failed: ${child.stderr}`)
    results.push(JSON.parse(child.stdout) as KindResult)
  }
  const lines = [
    `Milliseconds per MB (median of ${ROUNDS} rounds; characters, so 1 MB is 2^20 characters). Load average ${loadAtStart.join(' ')} at the start, ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} at the end.`,
    '',
    `| text | ${SIZES.map(sizeLabel).join(' | ')} | growth: dearest size ÷ 1 KB | gpt-tokenizer alone, ms per MB at ${SIZES.map(sizeLabel).join(', ')} | peak RSS |`,
    `|---|${SIZES.map(() => '---').join('|')}|---|---|---|`,
  ]
  for (const result of results) {
    const costs = result.measures.map((measure) => measure.oursMsPerMb)
    lines.push(
      `| ${result.kind} | ${result.measures.map((measure) => figure(measure.oursMsPerMb)).join(' | ')} | ${(Math.max(...costs) / (costs[0] ?? Number.NaN)).toFixed(2)} | ${result.measures.map((measure) => figure(measure.libraryMsPerMb)).join(', ')} | ${result.peakMegabytes} MB |`,
    )
  }
  lines.push(
    '',
    `Tokens counted at 10 MB: ${results.map((result) => `${result.kind} ${result.measures.at(-1)?.tokens.toLocaleString('en')}`).join(', ')}.`,
    '',
  )
  process.stdout.write(lines.join('\n'))
}

const kindFlag = process.argv.indexOf('--kind')
if (kindFlag !== -1) {
  process.stdout.write(JSON.stringify(measureKind(process.argv[kindFlag + 1] as Kind)))
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main()
}
