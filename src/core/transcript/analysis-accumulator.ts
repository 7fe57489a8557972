/**
 * The running totals of one transcript pass. Both readers (the byte-level fast path and the
 * structural fallback) feed it decoded facts through the same methods, so they count alike.
 */
import { BYTE, decodePlain, decodeString } from './json-bytes.ts'
import type { TranscriptAnalysis } from './transcript-analysis.ts'
import { CHANGE_TOOLS, countDecisionMarkers } from './transcript-rules.ts'

/** Token usage of one assistant message, as `message.usage` reports it. */
export interface MessageUsage {
  input: number
  output: number
  cacheCreation: number
  cacheRead: number
}

/** Totals that grow line by line; `toAnalysis` turns them into a TranscriptAnalysis. */
export class AnalysisAccumulator {
  bytes = 0
  lines = 0
  unparsableLines = 0
  private changeCount = 0
  private toolCount = 0
  private readonly toolCounts = new Map<string, number>()
  private readonly toolIds = new Set<string>()
  /** Per message id, the largest usage seen: split records repeat it, output grows to its final value. */
  private readonly messageUsage = new Map<string, MessageUsage>()
  private anonymousMessages = 0
  private readonly totals: MessageUsage = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 }
  private userTurns = 0
  private assistantChars = 0
  private decisionMarkers = 0
  private toolResults = 0
  private toolErrors = 0
  private readonly taskSlugs = new Set<string>()
  private firstTimestamp: string | null = null
  private lastTimestamp: string | null = null

  /** The latest timestamp's raw bytes, decoded only when asked for (most are overwritten unread). */
  private pendingTimestamp = new Uint8Array(32)
  private pendingTimestampLength = -1

  /** A counted record's timestamp, in file order. */
  noteTimestamp(timestamp: string): void {
    if (this.firstTimestamp === null) this.firstTimestamp = timestamp
    this.lastTimestamp = timestamp
    this.pendingTimestampLength = -1
  }

  /** Same as noteTimestamp, for the JSON string whose quotes are at `open` and `close`. */
  noteTimestampBytes(bytes: Uint8Array, open: number, close: number): void {
    const length = close - open - 1
    if (this.firstTimestamp === null || length > 64 || hasEscape(bytes, open + 1, close)) {
      this.noteTimestamp(decodeString(bytes, open, close))
      return
    }
    if (length > this.pendingTimestamp.length) this.pendingTimestamp = new Uint8Array(64)
    this.pendingTimestamp.set(bytes.subarray(open + 1, close))
    this.pendingTimestampLength = length
  }

  private latestTimestamp(): string | null {
    if (this.pendingTimestampLength === -1) return this.lastTimestamp
    return decodePlain(this.pendingTimestamp, 0, this.pendingTimestampLength)
  }

  /**
   * One assistant record's message. Records of one message share its id and usage; each usage
   * field counts once per id, at its largest value (the streamed output count only grows).
   */
  addAssistantMessage(id: string | null, usage: MessageUsage): void {
    if (id === null) {
      this.anonymousMessages++
      this.addUsage(usage)
      return
    }
    const known = this.messageUsage.get(id)
    if (known === undefined) {
      this.messageUsage.set(id, { ...usage })
      this.addUsage(usage)
      return
    }
    const growth: MessageUsage = {
      input: Math.max(0, usage.input - known.input),
      output: Math.max(0, usage.output - known.output),
      cacheCreation: Math.max(0, usage.cacheCreation - known.cacheCreation),
      cacheRead: Math.max(0, usage.cacheRead - known.cacheRead),
    }
    known.input += growth.input
    known.output += growth.output
    known.cacheCreation += growth.cacheCreation
    known.cacheRead += growth.cacheRead
    this.addUsage(growth)
  }

  private addUsage(usage: MessageUsage): void {
    this.totals.input += usage.input
    this.totals.output += usage.output
    this.totals.cacheCreation += usage.cacheCreation
    this.totals.cacheRead += usage.cacheRead
  }

  /** A tool_use block. Returns false when its id was already counted (the call is then ignored). */
  addToolUse(id: string | null, name: string): boolean {
    if (id !== null) {
      if (this.toolIds.has(id)) return false
      this.toolIds.add(id)
    }
    this.toolCount++
    this.toolCounts.set(name, (this.toolCounts.get(name) ?? 0) + 1)
    if (CHANGE_TOOLS.has(name)) this.changeCount++
    return true
  }

  /** Task slugs found in a counted tool call. */
  addTaskSlugs(slugs: readonly string[]): void {
    for (const slug of slugs) this.taskSlugs.add(slug)
  }

  /** An assistant text block. */
  addAssistantText(text: string): void {
    this.assistantChars += text.length
    this.decisionMarkers += countDecisionMarkers(text)
  }

  /** A tool_result block carried by a user record. */
  addToolResult(isError: boolean): void {
    this.toolResults++
    if (isError) this.toolErrors++
  }

  /** A prompt a person typed. */
  addHumanPrompt(text: string): void {
    this.userTurns++
    this.decisionMarkers += countDecisionMarkers(text)
  }

  /** The totals so far, as the public analysis shape (sub-agent files: none). */
  toAnalysis(): TranscriptAnalysis {
    const { input, output, cacheCreation, cacheRead } = this.totals
    return {
      change_count: this.changeCount,
      tool_count: this.toolCount,
      novel_tokens: input + output + cacheCreation,
      user_turns: this.userTurns,
      assistant_chars: this.assistantChars,
      decision_markers: this.decisionMarkers,
      task_slugs: this.taskSlugs.size,
      tool_counts: Object.fromEntries([...this.toolCounts].sort(([a], [b]) => (a < b ? -1 : 1))),
      assistant_messages: this.messageUsage.size + this.anonymousMessages,
      tool_results: this.toolResults,
      tool_errors: this.toolErrors,
      input_tokens: input,
      output_tokens: output,
      cache_creation_input_tokens: cacheCreation,
      cache_read_input_tokens: cacheRead,
      task_slug_list: [...this.taskSlugs],
      bytes: this.bytes,
      lines: this.lines,
      unparsable_lines: this.unparsableLines,
      subagent_files: 0,
      first_timestamp: this.firstTimestamp,
      last_timestamp: this.latestTimestamp(),
    }
  }
}

function hasEscape(bytes: Uint8Array, start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (bytes[index] === BYTE.backslash) return true
  return false
}
