/**
 * The transcript analyzer: consumes a Claude Code JSONL transcript as raw bytes, chunk by chunk
 * (a line may span chunks), and produces exact counts. Pure and synchronous; the caller does the I/O.
 *
 * Each line goes through the byte-level walk (record-walker.ts) and, when the walk cannot vouch
 * for it, through JSON.parse and the structural rules (structural-record.ts). A line JSON.parse
 * rejects is skipped and counted in `unparsable_lines`; the last line, when it has no newline
 * (the file is still being written), is always read by JSON.parse, so a cut-off record never counts.
 */
import { SomnusError } from '../errors.ts'
import { AnalysisAccumulator } from './analysis-accumulator.ts'
import { BYTE, decodePlain, skipWhitespace } from './json-bytes.ts'
import { RecordCounter } from './record-counter.ts'
import { RecordWalker, WALK_BAIL, WALK_COUNT } from './record-walker.ts'
import { type CountWindow, countParsedRecord } from './structural-record.ts'
import type { TranscriptAnalysis } from './transcript-analysis.ts'

/** What to count. */
export interface TranscriptAnalyzerOptions {
  /**
   * ISO time: records stamped at or before it are left out of every count (the part already
   * consolidated). Records without a timestamp always count.
   */
  since?: string
}

/** An analysis in progress. */
export interface TranscriptAnalyzer {
  /** Feeds the next bytes. The chunk is not kept: the caller may reuse its buffer afterwards. */
  push(chunk: Uint8Array): void
  /** Reads the last line (even without a newline) and returns the counts. Call once. */
  finish(): TranscriptAnalysis
  /** Lines the byte-level walk handed to JSON.parse (for tests and benchmarks: 0 on real data). */
  readonly structuralLines: number
}

/** Starts an analysis; throws USAGE when `since` is not a date. */
export function createTranscriptAnalyzer(
  options: TranscriptAnalyzerOptions = {},
): TranscriptAnalyzer {
  return new ChunkedAnalyzer(countWindowFor(options.since))
}

/** Analyzes a whole transcript held in memory. */
export function analyzeTranscriptBytes(
  bytes: Uint8Array,
  options: TranscriptAnalyzerOptions = {},
): TranscriptAnalysis {
  const analyzer = createTranscriptAnalyzer(options)
  analyzer.push(bytes)
  return analyzer.finish()
}

/** The counting window for a `since` option. */
export function countWindowFor(since: string | undefined): CountWindow {
  if (since === undefined) return { sinceMs: null }
  const sinceMs = Date.parse(since)
  if (Number.isNaN(sinceMs)) {
    throw new SomnusError(
      'USAGE',
      `"${since}" is not a date. Pass an ISO time such as 2026-02-12T16:00:00Z.`,
    )
  }
  return { sinceMs }
}

class ChunkedAnalyzer implements TranscriptAnalyzer {
  private readonly accumulator = new AnalysisAccumulator()
  private readonly walker = new RecordWalker()
  private readonly counter: RecordCounter
  /** The start of a line whose newline has not arrived yet. */
  private carry = new Uint8Array(0)
  private carryLength = 0
  private finished = false
  private readonly window: CountWindow
  structuralLines = 0

  constructor(window: CountWindow) {
    this.window = window
    this.counter = new RecordCounter(window)
  }

  push(chunk: Uint8Array): void {
    if (this.finished) throw new Error('TranscriptAnalyzer.push after finish')
    this.accumulator.bytes += chunk.length
    this.walker.beginChunk()
    let start = 0
    if (this.carryLength > 0) {
      const newline = chunk.indexOf(BYTE.newline)
      if (newline === -1) {
        this.keep(chunk, 0)
        return
      }
      this.keep(chunk.subarray(0, newline), 0)
      this.countLine(this.carry, 0, this.carryLength, false)
      this.carryLength = 0
      this.walker.beginChunk()
      start = newline + 1
    }
    for (;;) {
      const newline = chunk.indexOf(BYTE.newline, start)
      if (newline === -1) break
      this.countLine(chunk, start, newline, false)
      start = newline + 1
    }
    if (start < chunk.length) this.keep(chunk, start)
  }

  finish(): TranscriptAnalysis {
    if (!this.finished && this.carryLength > 0)
      this.countLine(this.carry, 0, this.carryLength, true)
    this.finished = true
    this.carryLength = 0
    return this.accumulator.toAnalysis()
  }

  /** Appends `chunk[from..]` to the carried partial line. */
  private keep(chunk: Uint8Array, from: number): void {
    const needed = this.carryLength + chunk.length - from
    if (needed > this.carry.length) {
      const grown = new Uint8Array(Math.max(needed, this.carry.length * 2, 4096))
      grown.set(this.carry.subarray(0, this.carryLength))
      this.carry = grown
    }
    this.carry.set(chunk.subarray(from), this.carryLength)
    this.carryLength = needed
  }

  /** The fast path; false when the line must be read by JSON.parse instead. */
  private countWalked(bytes: Uint8Array, start: number, end: number): boolean {
    const verdict = this.walker.walk(bytes, start, end)
    if (verdict === WALK_BAIL) return false
    if (verdict !== WALK_COUNT) return true
    try {
      this.counter.count(bytes, this.walker.facts, this.accumulator)
      return true
    } catch {
      return false // a string JSON.parse rejects (bad escape): the structural path decides
    }
  }

  private countLine(bytes: Uint8Array, start: number, end: number, unterminated: boolean): void {
    const first = skipWhitespace(bytes, start, end)
    if (first === end) return // blank lines are not records
    this.accumulator.lines++
    if (!unterminated && this.countWalked(bytes, first, end)) return
    this.structuralLines++
    let record: unknown
    try {
      record = JSON.parse(decodePlain(bytes, first, end))
    } catch {
      this.accumulator.unparsableLines++
      return
    }
    countParsedRecord(record, this.window, this.accumulator)
  }
}
