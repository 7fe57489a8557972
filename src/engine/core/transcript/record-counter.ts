/**
 * Turns the facts of one walked line into counts, with the same rules as the structural path
 * (structural-record.ts). Decodes as little as it can: tool names repeat, consecutive records of
 * one message share its id (see the accumulator), and timestamps are compared as bytes when they
 * have the canonical `toISOString()` shape.
 */
import type { AnalysisAccumulator } from './analysis-accumulator.ts'
import {
  asciiBytes,
  bytesMatch,
  decodePlain,
  decodeString,
  hasBackslash,
  spanIncludes,
} from './json-bytes.ts'
import {
  BLOCK_IMAGE,
  BLOCK_TEXT,
  BLOCK_TOOL_RESULT,
  BLOCK_TOOL_USE,
  type BlockSpans,
  CONTENT_ARRAY,
  CONTENT_STRING,
  type LineFacts,
  RECORD_ASSISTANT,
} from './line-facts.ts'
import { type CountWindow, inWindow, isHumanPrompt, UNNAMED_TOOL } from './structural-record.ts'
import {
  isSleepDispatch,
  SLEEP_DISPATCH_HINT,
  SUBAGENT_TOOLS,
  TASK_SLUG_HINTS,
  taskSlugsOf,
} from './transcript-rules.ts'

const STATE_FILE_HINT = asciiBytes(TASK_SLUG_HINTS.stateFile)
const COMMAND_HINT = asciiBytes(TASK_SLUG_HINTS.command)
const SLEEP_HINT = asciiBytes(SLEEP_DISPATCH_HINT)
/** The hints are searched by a rare letter: the x of _agent_context, the k of tasks. */
const STATE_FILE_ANCHOR = TASK_SLUG_HINTS.stateFile.indexOf('x')
const COMMAND_ANCHOR = TASK_SLUG_HINTS.command.indexOf('k')
/** Length of a `toISOString()` time: 2026-02-12T16:02:25.284Z. */
const ISO_LENGTH = 24

const NO_SLUGS: readonly string[] = []

/** Counts walked lines; one instance per analyzer (it remembers the tool names it met). */
export class RecordCounter {
  private readonly window: CountWindow
  /** `since` as canonical ISO bytes, for byte-wise comparison with canonical timestamps. */
  private readonly sinceBytes: Uint8Array | null
  private readonly names: KnownName[] = []

  constructor(window: CountWindow) {
    this.window = window
    this.sinceBytes = window.sinceMs === null ? null : sinceBytesOf(window.sinceMs)
  }

  /** Counts the facts. Throws (having counted nothing) when a string does not decode. */
  count(bytes: Uint8Array, facts: LineFacts, accumulator: AnalysisAccumulator): void {
    if (
      facts.timestampOpen !== -1 &&
      !this.inWindow(bytes, facts.timestampOpen, facts.timestampClose)
    ) {
      return
    }
    if (!facts.hasMessage) {
      this.noteTimestamp(bytes, facts, accumulator)
      return
    }
    if (facts.recordType === RECORD_ASSISTANT) this.countAssistant(bytes, facts, accumulator)
    else this.countUser(bytes, facts, accumulator)
  }

  private inWindow(bytes: Uint8Array, open: number, close: number): boolean {
    if (this.window.sinceMs === null) return true
    const since = this.sinceBytes
    if (since !== null && close - open - 1 === ISO_LENGTH && isCanonicalIso(bytes, open + 1)) {
      for (let index = 0; index < ISO_LENGTH; index++) {
        const difference = (bytes[open + 1 + index] as number) - (since[index] as number)
        if (difference !== 0) return difference > 0
      }
      return false // equal: at the boundary, already consumed
    }
    return inWindow(this.window, decodeString(bytes, open, close))
  }

  private noteTimestamp(
    bytes: Uint8Array,
    facts: LineFacts,
    accumulator: AnalysisAccumulator,
  ): void {
    if (facts.timestampOpen !== -1) {
      accumulator.noteTimestampBytes(bytes, facts.timestampOpen, facts.timestampClose)
    }
  }

  private countAssistant(
    bytes: Uint8Array,
    facts: LineFacts,
    accumulator: AnalysisAccumulator,
  ): void {
    // Everything that could fail to decode is decoded before anything counts.
    if (facts.idOpen !== -1) checkDecodable(bytes, facts.idOpen, facts.idClose)
    const blockCount = facts.contentKind === CONTENT_ARRAY ? facts.blockCount : 0
    for (let index = 0; index < blockCount; index++) {
      const block = facts.blocks[index] as BlockSpans
      if (block.kind === BLOCK_TEXT && block.textOpen !== -1) {
        block.text = decodeString(bytes, block.textOpen, block.textClose)
      } else if (block.kind === BLOCK_TOOL_USE) {
        block.id = block.idOpen === -1 ? null : decodeString(bytes, block.idOpen, block.idClose)
        block.name =
          block.nameOpen === -1
            ? UNNAMED_TOOL
            : this.toolName(bytes, block.nameOpen, block.nameClose)
        block.slugs = this.taskSlugs(bytes, block)
        block.sleep = this.dispatchesSleep(bytes, block)
      }
    }
    this.noteTimestamp(bytes, facts, accumulator)
    accumulator.addAssistantMessageBytes(
      bytes,
      facts.idOpen,
      facts.idClose,
      facts.inputTokens,
      facts.outputTokens,
      facts.cacheCreationTokens,
      facts.cacheReadTokens,
    )
    for (let index = 0; index < blockCount; index++) {
      const block = facts.blocks[index] as BlockSpans
      if (block.kind === BLOCK_TEXT && block.textOpen !== -1) {
        accumulator.addAssistantText(block.text)
      } else if (block.kind === BLOCK_TOOL_USE && block.sleep) {
        accumulator.addSleepDispatch(block.id)
      } else if (block.kind === BLOCK_TOOL_USE) {
        const counted = accumulator.addToolUse(block.id, block.name)
        if (counted && block.slugs.length > 0) accumulator.addTaskSlugs(block.slugs)
      }
    }
  }

  private countUser(bytes: Uint8Array, facts: LineFacts, accumulator: AnalysisAccumulator): void {
    const human =
      facts.toolResults === 0 && !facts.isMeta && !facts.isCompactSummary && !facts.isSidechain
    let text = ''
    let hasImage = false
    if (human && facts.contentKind === CONTENT_STRING) {
      text = decodeString(bytes, facts.contentOpen, facts.contentClose)
    } else if (human && facts.contentKind === CONTENT_ARRAY) {
      const texts: string[] = []
      for (let index = 0; index < facts.blockCount; index++) {
        const block = facts.blocks[index] as BlockSpans
        if (block.kind === BLOCK_TEXT && block.textOpen !== -1) {
          texts.push(decodeString(bytes, block.textOpen, block.textClose))
        } else if (block.kind === BLOCK_IMAGE) hasImage = true
      }
      text = texts.join('\n')
    }
    this.noteTimestamp(bytes, facts, accumulator)
    if (facts.contentKind === CONTENT_ARRAY) {
      for (let index = 0; index < facts.blockCount; index++) {
        const block = facts.blocks[index] as BlockSpans
        if (block.kind === BLOCK_TOOL_RESULT) accumulator.addToolResult(block.isError)
      }
    }
    if (human && isHumanPrompt(text, hasImage)) accumulator.addHumanPrompt(text)
  }

  /** Task slugs a tool_use block's input names; parsed only when it holds a hint. */
  private taskSlugs(bytes: Uint8Array, block: BlockSpans): readonly string[] {
    const { inputStart, inputEnd } = block
    const mayNameTask =
      inputStart !== -1 &&
      (spanIncludes(bytes, inputStart, inputEnd, STATE_FILE_HINT, STATE_FILE_ANCHOR) ||
        (block.name === 'Bash' &&
          spanIncludes(bytes, inputStart, inputEnd, COMMAND_HINT, COMMAND_ANCHOR)))
    return mayNameTask
      ? taskSlugsOf(block.name, JSON.parse(decodePlain(bytes, inputStart, inputEnd)))
      : NO_SLUGS
  }

  /** True when a sub-agent call starts Somnus's own sleep; parsed only when it holds the hint. */
  private dispatchesSleep(bytes: Uint8Array, block: BlockSpans): boolean {
    const { inputStart, inputEnd } = block
    if (inputStart === -1 || !SUBAGENT_TOOLS.has(block.name)) return false
    if (!spanIncludes(bytes, inputStart, inputEnd, SLEEP_HINT)) return false
    return isSleepDispatch(block.name, JSON.parse(decodePlain(bytes, inputStart, inputEnd)))
  }

  /** A tool name, from a small cache of names already seen (a session uses a handful of tools). */
  private toolName(bytes: Uint8Array, open: number, close: number): string {
    const length = close - open - 1
    for (let index = 0; index < this.names.length; index++) {
      const known = this.names[index] as KnownName
      if (known.bytes.length === length && bytesMatch(bytes, open + 1, known.bytes, length))
        return known.name
    }
    const name = decodeString(bytes, open, close)
    if (this.names.length < 64) {
      // A copy: the chunk's buffer is reused for the next read (a Buffer's slice would share it).
      const copy = new Uint8Array(length)
      for (let index = 0; index < length; index++) copy[index] = bytes[open + 1 + index] as number
      this.names.push({ bytes: copy, name })
    }
    return name
  }
}

/** A tool name met before, and its raw bytes. */
interface KnownName {
  bytes: Uint8Array
  name: string
}

/** Throws when the JSON string at `open`..`close` holds an escape JSON.parse rejects. */
function checkDecodable(bytes: Uint8Array, open: number, close: number): void {
  if (hasBackslash(bytes, open + 1, close)) decodeString(bytes, open, close)
}

function sinceBytesOf(sinceMs: number): Uint8Array | null {
  const iso = new Date(sinceMs).toISOString()
  return iso.length === ISO_LENGTH ? asciiBytes(iso) : null
}

/** `YYYY-MM-DDTHH:MM:SS.sssZ` at `at`: such times order the same as bytes and as dates. */
function isCanonicalIso(bytes: Uint8Array, at: number): boolean {
  for (let index = 0; index < ISO_LENGTH; index++) {
    const byte = bytes[at + index] as number
    const expected = ISO_SHAPE.charCodeAt(index)
    if (expected === 100 ? byte < 48 || byte > 57 : byte !== expected) return false // d: any digit
  }
  return true
}

const ISO_SHAPE = 'dddd-dd-ddTdd:dd:dd.dddZ'
