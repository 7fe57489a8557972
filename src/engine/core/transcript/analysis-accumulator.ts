/**
 * The running totals of one transcript pass. Both readers (the byte-level fast path and the
 * structural fallback) feed it decoded facts through the same methods, so they count alike.
 */
import { decodePlain, decodeString, hasBackslash } from './json-bytes.ts'
import { type MessageUsage, MessageUsageTable } from './message-usage.ts'
import type { TranscriptAnalysis } from './transcript-analysis.ts'
import { CHANGE_TOOLS, countDecisionMarkers } from './transcript-rules.ts'

/** Totals that grow line by line; `toAnalysis` turns them into a TranscriptAnalysis. */
export class AnalysisAccumulator {
  bytes = 0
  lines = 0
  unparsableLines = 0
  private changeCount = 0
  private toolCount = 0
  private sleepDispatches = 0
  private readonly toolCounts = new Map<string, number>()
  private readonly toolIds = new Set<string>()
  private readonly messages = new MessageUsageTable()
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
    if (this.firstTimestamp === null || length > 64 || hasBackslash(bytes, open + 1, close)) {
      this.noteTimestamp(decodeString(bytes, open, close))
      return
    }
    if (length > this.pendingTimestamp.length) this.pendingTimestamp = new Uint8Array(64)
    for (let index = 0; index < length; index++) {
      this.pendingTimestamp[index] = bytes[open + 1 + index] as number
    }
    this.pendingTimestampLength = length
  }

  private latestTimestamp(): string | null {
    if (this.pendingTimestampLength === -1) return this.lastTimestamp
    return decodePlain(this.pendingTimestamp, 0, this.pendingTimestampLength)
  }

  /** One assistant record's message: its id (null: none) and usage (see MessageUsageTable). */
  addAssistantMessage(id: string | null, usage: MessageUsage): void {
    this.messages.add(id, usage.input, usage.output, usage.cacheCreation, usage.cacheRead)
  }

  /** Same as addAssistantMessage, with the id as the JSON string at `open`..`close` (-1: none). */
  addAssistantMessageBytes(
    bytes: Uint8Array,
    open: number,
    close: number,
    input: number,
    output: number,
    cacheCreation: number,
    cacheRead: number,
  ): void {
    if (open === -1) this.messages.add(null, input, output, cacheCreation, cacheRead)
    else this.messages.addBytes(bytes, open, close, input, output, cacheCreation, cacheRead)
  }

  /** A tool_use block. Returns false when its id was already counted (the call is then ignored). */
  addToolUse(id: string | null, name: string): boolean {
    if (id !== null) {
      if (this.toolIds.has(id)) return false
      this.toolIds.add(id)
    }
    this.countTool(name)
    return true
  }

  /**
   * A tool_use block that dispatches Somnus's own sleep: its id is taken (a repeat of the block is
   * ignored like any repeat) but no tool is counted. Returns false when the id was already seen.
   */
  addSleepDispatch(id: string | null): boolean {
    if (id !== null) {
      if (this.toolIds.has(id)) return false
      this.toolIds.add(id)
    }
    this.sleepDispatches++
    return true
  }

  private countTool(name: string): void {
    this.toolCount++
    this.toolCounts.set(name, (this.toolCounts.get(name) ?? 0) + 1)
    if (CHANGE_TOOLS.has(name)) this.changeCount++
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
    const { input, output, cacheCreation, cacheRead } = this.messages.totals()
    return {
      change_count: this.changeCount,
      tool_count: this.toolCount,
      novel_tokens: input + output + cacheCreation,
      user_turns: this.userTurns,
      assistant_chars: this.assistantChars,
      decision_markers: this.decisionMarkers,
      task_slugs: this.taskSlugs.size,
      tool_counts: Object.fromEntries([...this.toolCounts].sort(([a], [b]) => (a < b ? -1 : 1))),
      assistant_messages: this.messages.messages,
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
      sleep_dispatches: this.sleepDispatches,
      sleep_subagent_files: 0,
      first_timestamp: this.firstTimestamp,
      last_timestamp: this.latestTimestamp(),
    }
  }
}
