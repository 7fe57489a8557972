/**
 * Feeds transcript bytes to a SessionDigestBuilder without a JSON.parse of every line. Most bytes
 * of a transcript are `progress` records and tool output (each tool result twice: in the message
 * and again in `toolUseResult`); the digest needs neither. So each line's top-level keys are
 * walked with the byte scanner, values skipped unread: a record that is not a user or assistant
 * one is dropped as soon as its `type` is read, `toolUseResult` is read only beside a failed result
 * (where Claude Code stamps a refusal), and a tool result's
 * message is parsed only when it failed or the builder asked for its output. Everything else
 * (prompts, assistant messages) is parsed with JSON.parse, message only.
 *
 * Anything the walk does not expect (a line that is not one object, an escaped key, a cut-off
 * value) goes to JSON.parse of the whole line, which decides; a line it cannot parse is counted
 * in `unparsableLines` and skipped.
 */
import {
  asciiBytes,
  BYTE,
  bytesMatch,
  decodePlain,
  decodeString,
  hasBackslash,
  isLiteralTrue,
  skipValue,
  skipWhitespace,
  spanIncludes,
  stringEnd,
} from '../transcript/json-bytes.ts'
import type { DigestFileKind, SessionDigestBuilder } from './session-digest-builder.ts'

/** Top-level keys whose values the digest reads. */
const WANTED_KEYS = new Set([
  'type',
  'uuid',
  'timestamp',
  'isSidechain',
  'isMeta',
  'isCompactSummary',
  'message',
  'cwd',
  'gitBranch',
  'toolDenialKind',
  'origin',
])

/** `"tool_use_id":"`, `"is_error":true`: keys only a tool result block has. */
const TOOL_USE_ID_KEY = asciiBytes('"tool_use_id":"')
const IS_ERROR_TRUE = asciiBytes('"is_error":true')
/** Where the native search anchors in both needles: their colon, rarer than quotes or letters. */
const TOOL_USE_ID_ANCHOR = 13
const IS_ERROR_ANCHOR = 10

/** Spans of one line's wanted top-level values: [start, end) per key. */
type Spans = Map<string, [number, number]>

/** Reads lines into a builder; counts what it could not read. */
export class DigestLineReader {
  /** Non-blank lines seen. */
  lines = 0
  /** Lines that are not a JSON object (cut off, damaged). */
  unparsableLines = 0
  /** Lines handed to JSON.parse whole because the walk could not vouch for them. */
  parsedWhole = 0
  private readonly builder: SessionDigestBuilder

  constructor(builder: SessionDigestBuilder) {
    this.builder = builder
  }

  /** Starts the next file (see SessionDigestBuilder.beginFile). */
  beginFile(name: string, kind: DigestFileKind): void {
    this.builder.beginFile(name, kind)
  }

  /** Reads `bytes`, which hold whole lines (a chunk ending at a newline, or the file's end). */
  push(bytes: Uint8Array): void {
    let start = 0
    while (start < bytes.length) {
      let end = bytes.indexOf(BYTE.newline, start)
      if (end === -1) end = bytes.length
      this.readLine(bytes, start, end)
      start = end + 1
    }
  }

  private readLine(bytes: Uint8Array, lineStart: number, lineEnd: number): void {
    const start = skipWhitespace(bytes, lineStart, lineEnd)
    let end = lineEnd
    while (end > start && (bytes[end - 1] === 13 || bytes[end - 1] === 32 || bytes[end - 1] === 9))
      end--
    if (start === end) return
    this.lines++
    if (bytes[start] !== BYTE.openBrace || bytes[end - 1] !== BYTE.closeBrace) {
      this.parseWhole(bytes, start, end)
      return
    }
    if (isOtherRecord(bytes, start, end)) return
    const spans: Spans = new Map()
    const walked = walkTopLevel(bytes, start, end, spans)
    if (walked === WALK_FAILED) {
      this.parseWhole(bytes, start, end)
      return
    }
    if (walked === WALK_SKIPPED) return
    this.addWalked(bytes, spans)
  }

  private addWalked(bytes: Uint8Array, spans: Spans): void {
    const type = stringAt(bytes, spans.get('type'))
    const message = spans.get('message')
    if ((type !== 'user' && type !== 'assistant') || message === undefined) return
    const record: Record<string, unknown> = { type }
    for (const key of ['uuid', 'timestamp', 'cwd', 'gitBranch']) {
      const value = stringAt(bytes, spans.get(key))
      if (value !== null) record[key] = value
    }
    for (const key of ['isSidechain', 'isMeta', 'isCompactSummary']) {
      const span = spans.get(key)
      if (span !== undefined) record[key] = isLiteralTrue(bytes, span[0], span[1])
    }
    const denial = stringAt(bytes, spans.get('toolDenialKind'))
    if (denial !== null) record.toolDenialKind = denial
    const origin = spans.get('origin')
    if (origin !== undefined) record.origin = parsedOr(bytes, origin, {})
    // Present, and read only when short: a refusal's stamp, never a tool's bulk output.
    const result = spans.get('toolUseResult')
    if (result !== undefined)
      record.toolUseResult =
        result[1] - result[0] <= 8_192 && bytes[result[0]] === BYTE.quote
          ? (stringAt(bytes, result) ?? {})
          : {}
    const [from, to] = message
    const ids = type === 'user' ? toolUseIds(bytes, from, to) : []
    if (ids.length > 0 && !this.needsResults(bytes, from, to, ids)) {
      // Only whether the calls succeeded matters: skip the output unread.
      record.message = {
        role: 'user',
        content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: '' })),
      }
    } else {
      try {
        record.message = JSON.parse(decodePlain(bytes, from, to))
      } catch {
        this.unparsableLines++
        return
      }
    }
    this.builder.addRecord(record)
  }

  private needsResults(bytes: Uint8Array, from: number, to: number, ids: string[]): boolean {
    if (spanIncludes(bytes, from, to, IS_ERROR_TRUE, IS_ERROR_ANCHOR)) return true
    return ids.some((id) => this.builder.wantsToolOutput(id))
  }

  private parseWhole(bytes: Uint8Array, start: number, end: number): void {
    this.parsedWhole++
    let record: unknown
    try {
      record = JSON.parse(decodePlain(bytes, start, end))
    } catch {
      this.unparsableLines++
      return
    }
    this.builder.addRecord(record)
  }
}

/** `"type":"`: found before the line's first nested value, it is the record's own type. */
const TYPE_KEY = asciiBytes('"type":"')
/** Where the native search anchors in TYPE_KEY: its colon. */
const TYPE_ANCHOR = 6
/** How far into a line the flat envelope is searched for the type (Claude Code puts it early). */
const ENVELOPE_BYTES = 1024

/**
 * True when the record's type, read from the flat run of scalars it opens with, is neither user
 * nor assistant: progress, system and snapshot records (most lines) go without a walk. In compact
 * JSON a `"type":"` with no `{` or `[` before it can only be a top-level key, since a quote inside
 * a string is escaped. Anything else (type after the first nested value) is left to the walk.
 */
function isOtherRecord(bytes: Uint8Array, start: number, end: number): boolean {
  const limit = Math.min(end, start + ENVELOPE_BYTES)
  let at = start + 1 + TYPE_ANCHOR
  for (;;) {
    const colon = bytes.indexOf(BYTE.colon, at)
    if (colon === -1 || colon >= limit) return false
    const first = colon - TYPE_ANCHOR
    if (bytesMatch(bytes, first, TYPE_KEY, TYPE_KEY.length)) {
      for (let index = start + 1; index < first; index++) {
        const byte = bytes[index]
        if (byte === BYTE.openBrace || byte === BYTE.openBracket) return false
      }
      const valueStart = first + TYPE_KEY.length - 1
      const close = stringEnd(bytes, valueStart, end)
      if (close === -1) return false
      const length = close - valueStart - 1
      // "user" and "assistant", compared without decoding.
      if (length === 4 && bytesMatch(bytes, valueStart + 1, USER, 4)) return false
      if (length === 9 && bytesMatch(bytes, valueStart + 1, ASSISTANT, 9)) return false
      // An escaped type is unusual: let the walk read it.
      return !hasBackslash(bytes, valueStart + 1, close)
    }
    at = colon + 1
  }
}

const USER = asciiBytes('user')
const ASSISTANT = asciiBytes('assistant')

/** The walk could not vouch for the line: parse it whole. */
const WALK_FAILED = -1
/** Not a record the digest reads. */
const WALK_SKIPPED = -2
/** Walked: the spans are filled in. */
const WALK_DONE = 0

/**
 * Walks the record's top-level members, noting the spans of wanted keys. Stops early on a record
 * type the digest ignores, and at `toolUseResult` once the rest cannot matter.
 */
function walkTopLevel(bytes: Uint8Array, start: number, end: number, spans: Spans): number {
  let at = skipWhitespace(bytes, start + 1, end)
  if (bytes[at] === BYTE.closeBrace) return WALK_DONE
  for (;;) {
    if (bytes[at] !== BYTE.quote) return WALK_FAILED
    const keyClose = stringEnd(bytes, at, end)
    if (keyClose === -1) return WALK_FAILED
    const key = asciiKey(bytes, at + 1, keyClose)
    if (key === null) return WALK_FAILED
    at = skipWhitespace(bytes, keyClose + 1, end)
    if (bytes[at] !== BYTE.colon) return WALK_FAILED
    at = skipWhitespace(bytes, at + 1, end)
    if (key === 'toolUseResult') {
      // Who wrote a failed result is told by stamps beside it (provenance.ts): read on.
      const message = spans.get('message')
      const failed =
        message === undefined ||
        spanIncludes(bytes, message[0], message[1], IS_ERROR_TRUE, IS_ERROR_ANCHOR)
      if (!failed && spans.has('uuid') && spans.has('timestamp')) {
        spans.set(key, [at, at])
        return WALK_DONE
      }
    }
    const valueEnd = skipValue(bytes, at, end)
    if (valueEnd < 0) return WALK_FAILED
    if (key === 'toolUseResult' && !spans.has(key)) spans.set(key, [at, valueEnd])
    if (WANTED_KEYS.has(key) && !spans.has(key)) spans.set(key, [at, valueEnd])
    if (key === 'type') {
      const type = stringAt(bytes, [at, valueEnd])
      if (type !== 'user' && type !== 'assistant') return WALK_SKIPPED
    }
    at = skipWhitespace(bytes, valueEnd, end)
    if (bytes[at] === BYTE.comma) {
      at = skipWhitespace(bytes, at + 1, end)
      continue
    }
    if (bytes[at] !== BYTE.closeBrace) return WALK_FAILED
    return skipWhitespace(bytes, at + 1, end) === end ? WALK_DONE : WALK_FAILED
  }
}

/** The JSON value at `span`, or `fallback` when it does not parse. */
function parsedOr(bytes: Uint8Array, span: [number, number], fallback: unknown): unknown {
  try {
    return JSON.parse(decodePlain(bytes, span[0], span[1]))
  } catch {
    return fallback
  }
}

/** The string value at `span` (quotes included), or null when it is not a string. */
function stringAt(bytes: Uint8Array, span: [number, number] | undefined): string | null {
  if (span === undefined || bytes[span[0]] !== BYTE.quote) return null
  return decodeString(bytes, span[0], span[1] - 1)
}

/** The ids of the tool_result blocks in the message `bytes[from, to)`. */
function toolUseIds(bytes: Uint8Array, from: number, to: number): string[] {
  const ids: string[] = []
  let at = indexOfKey(bytes, from, to)
  while (at !== -1) {
    const open = at + TOOL_USE_ID_KEY.length - 1
    const close = stringEnd(bytes, open, to)
    if (close === -1) break
    ids.push(decodeString(bytes, open, close))
    at = indexOfKey(bytes, close, to)
  }
  return ids
}

/** Index of the next `"tool_use_id":"` in `bytes[from, to)`, or -1. */
function indexOfKey(bytes: Uint8Array, from: number, to: number): number {
  const needle = TOOL_USE_ID_KEY
  let at = from + TOOL_USE_ID_ANCHOR
  while (at < to) {
    const found = bytes.indexOf(BYTE.colon, at)
    if (found === -1 || found >= to) return -1
    const first = found - TOOL_USE_ID_ANCHOR
    if (
      first >= from &&
      first + needle.length <= to &&
      bytesMatch(bytes, first, needle, needle.length)
    )
      return first
    at = found + 1
  }
  return -1
}

/** A short plain-ASCII key as a string without a TextDecoder call; null for anything else. */
function asciiKey(bytes: Uint8Array, start: number, end: number): string | null {
  if (end - start > 40) return null
  let key = ''
  for (let index = start; index < end; index++) {
    const byte = bytes[index] as number
    if (byte === BYTE.backslash || byte > 126) return null
    key += String.fromCharCode(byte)
  }
  return key
}
