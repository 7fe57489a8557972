/**
 * The keys the byte-level walk reads, where it meets them (the record, its message, the usage, a
 * content block), and how each value lands in LineFacts. member-walker.ts walks the objects;
 * this file knows what their keys mean.
 */
import {
  asciiBytes,
  BYTE,
  bytesMatch,
  hasBackslash,
  isLiteralTrue,
  readNumber,
  skipValue,
  stringEnd,
} from './json-bytes.ts'
import {
  BLOCK_IMAGE,
  BLOCK_OTHER,
  BLOCK_TEXT,
  BLOCK_TOOL_RESULT,
  BLOCK_TOOL_USE,
  CONTENT_STRING,
  type LineFacts,
  RECORD_ASSISTANT,
  RECORD_OTHER,
  RECORD_USER,
  SEEN_IS_COMPACT_SUMMARY,
  SEEN_IS_META,
  SEEN_IS_SIDECHAIN,
  SEEN_TIMESTAMP,
  SEEN_TYPE,
} from './line-facts.ts'

/** The bytes could not be vouched for: the line goes to JSON.parse. */
export const WALK_FAILED = -1

/** Where the walk is: directly inside the record. */
export const IN_RECORD = 0
/** Directly inside the record's message. */
export const IN_MESSAGE = 1
/** Directly inside the message's usage. */
export const IN_USAGE = 2
/** Directly inside the message's content array. */
export const IN_CONTENT = 3
/** Directly inside a content block. */
export const IN_BLOCK = 4

// What a key means where it is; the walker needs only the few it tests itself.
/** A key the counts ignore: its value is skipped unread. */
export const FIELD_NONE = 0
const RECORD_TYPE = 1
const RECORD_TIMESTAMP = 2
/** The record's `message`. */
export const RECORD_MESSAGE = 3
const RECORD_IS_META = 4
const RECORD_IS_SIDECHAIN = 5
const RECORD_IS_COMPACT_SUMMARY = 6
const MESSAGE_ID = 7
/** The message's `content`. */
export const MESSAGE_CONTENT = 8
/** The message's `usage`. */
export const MESSAGE_USAGE = 9
const USAGE_INPUT = 10
const USAGE_OUTPUT = 11
const USAGE_CACHE_CREATION = 12
const USAGE_CACHE_READ = 13
const BLOCK_TYPE = 14
const BLOCK_ID = 15
const BLOCK_NAME = 16
const BLOCK_INPUT = 17
const BLOCK_TEXT_FIELD = 18
const BLOCK_IS_ERROR = 19

/** Every key the counts read: where it is, its name, and the field it fills. */
const KEYS: ReadonlyArray<readonly [where: number, name: string, field: number]> = [
  [IN_RECORD, 'type', RECORD_TYPE],
  [IN_RECORD, 'timestamp', RECORD_TIMESTAMP],
  [IN_RECORD, 'message', RECORD_MESSAGE],
  [IN_RECORD, 'isMeta', RECORD_IS_META],
  [IN_RECORD, 'isSidechain', RECORD_IS_SIDECHAIN],
  [IN_RECORD, 'isCompactSummary', RECORD_IS_COMPACT_SUMMARY],
  [IN_MESSAGE, 'id', MESSAGE_ID],
  [IN_MESSAGE, 'content', MESSAGE_CONTENT],
  [IN_MESSAGE, 'usage', MESSAGE_USAGE],
  [IN_USAGE, 'input_tokens', USAGE_INPUT],
  [IN_USAGE, 'output_tokens', USAGE_OUTPUT],
  [IN_USAGE, 'cache_creation_input_tokens', USAGE_CACHE_CREATION],
  [IN_USAGE, 'cache_read_input_tokens', USAGE_CACHE_READ],
  [IN_BLOCK, 'type', BLOCK_TYPE],
  [IN_BLOCK, 'id', BLOCK_ID],
  [IN_BLOCK, 'name', BLOCK_NAME],
  [IN_BLOCK, 'input', BLOCK_INPUT],
  [IN_BLOCK, 'text', BLOCK_TEXT_FIELD],
  [IN_BLOCK, 'is_error', BLOCK_IS_ERROR],
]
/** Keys are looked up by where and length: most keys are turned away by that alone. */
const MAX_KEY_LENGTH = 32
const KEY_NAMES = KEYS.map(([, name]) => asciiBytes(name))
const KEY_FIELDS = KEYS.map(([, , field]) => field)
/** Per where and length, the first candidate key (-1: none); NEXT_KEY chains the others. */
const FIRST_KEY = new Int8Array(5 * MAX_KEY_LENGTH).fill(-1)
const NEXT_KEY = new Int8Array(KEYS.length).fill(-1)
for (let key = KEYS.length - 1; key >= 0; key--) {
  const [where, name] = KEYS[key] as (typeof KEYS)[number]
  NEXT_KEY[key] = FIRST_KEY[where * MAX_KEY_LENGTH + name.length] as number
  FIRST_KEY[where * MAX_KEY_LENGTH + name.length] = key
}

/** The field a key names where it is (FIELD_NONE for keys the counts ignore). */
export function fieldOf(bytes: Uint8Array, start: number, close: number, where: number): number {
  const length = close - start
  if (length >= MAX_KEY_LENGTH) return FIELD_NONE
  for (let key = FIRST_KEY[where * MAX_KEY_LENGTH + length] as number; key !== -1; ) {
    if (bytesMatch(bytes, start, KEY_NAMES[key] as Uint8Array, length))
      return KEY_FIELDS[key] as number
    key = NEXT_KEY[key] as number
  }
  return FIELD_NONE
}

/** Type names, as bytes. */
const NAME = {
  user: asciiBytes('user'),
  assistant: asciiBytes('assistant'),
  text: asciiBytes('text'),
  toolUse: asciiBytes('tool_use'),
  toolResult: asciiBytes('tool_result'),
  image: asciiBytes('image'),
}

/** The record type a `type` value names; -1 when an escape hides it (JSON.parse must decide). */
function recordTypeOf(bytes: Uint8Array, open: number, close: number): number {
  if (open === -1) return RECORD_OTHER
  const length = close - open - 1
  if (length === 4 && matches(bytes, open + 1, NAME.user)) return RECORD_USER
  if (length === 9 && matches(bytes, open + 1, NAME.assistant)) return RECORD_ASSISTANT
  return hasBackslash(bytes, open + 1, close) ? -1 : RECORD_OTHER
}

/** The kind of block a `type` value names; -1 when an escape hides it (JSON.parse must decide). */
function blockKindOf(bytes: Uint8Array, open: number, close: number): number {
  if (open === -1) return BLOCK_OTHER
  const start = open + 1
  const length = close - start
  if (length === 4 && matches(bytes, start, NAME.text)) return BLOCK_TEXT
  if (length === 8 && matches(bytes, start, NAME.toolUse)) return BLOCK_TOOL_USE
  if (length === 11 && matches(bytes, start, NAME.toolResult)) return BLOCK_TOOL_RESULT
  if (length === 5 && matches(bytes, start, NAME.image)) return BLOCK_IMAGE
  return hasBackslash(bytes, start, close) ? -1 : BLOCK_OTHER
}

/** True when the bytes at `start` are `name` (the caller has checked the length). */
function matches(bytes: Uint8Array, start: number, name: Uint8Array): boolean {
  return bytesMatch(bytes, start, name, name.length)
}

/** A usage number as the structural path reads it: positive finite numbers, else 0. */
function tokenCount(bytes: Uint8Array, at: number, valueEnd: number): number {
  const value = readNumber(bytes, at, valueEnd)
  return Number.isFinite(value) && value > 0 ? value : 0
}

/** Reads the record's `type` string whose quote is at `open`; returns the index past it, or -1. */
export function readRecordType(
  bytes: Uint8Array,
  open: number,
  end: number,
  facts: LineFacts,
): number {
  const close = stringEnd(bytes, open, end)
  if (close === -1) return WALK_FAILED
  facts.seen |= SEEN_TYPE
  facts.recordType = recordTypeOf(bytes, open, close)
  return facts.recordType === -1 ? WALK_FAILED : close + 1
}

/** Reads a value that is not walked into (a string, number, literal, or a value of another shape). */
export function readValue(
  bytes: Uint8Array,
  at: number,
  end: number,
  field: number,
  facts: LineFacts,
): number {
  const valueEnd = skipValue(bytes, at, end)
  if (valueEnd < 0) return WALK_FAILED
  const open = bytes[at] === BYTE.quote ? at : -1
  const close = valueEnd - 1
  const block = facts.currentBlock
  switch (field) {
    case RECORD_TYPE:
      facts.seen |= SEEN_TYPE
      facts.recordType = recordTypeOf(bytes, open, close)
      return facts.recordType === -1 ? WALK_FAILED : valueEnd
    case RECORD_TIMESTAMP:
      facts.seen |= SEEN_TIMESTAMP
      facts.timestampOpen = open
      facts.timestampClose = close
      break
    case RECORD_MESSAGE:
      facts.hasMessage = false // not an object: no message to count
      break
    case RECORD_IS_META:
      facts.seen |= SEEN_IS_META
      facts.isMeta = isLiteralTrue(bytes, at, valueEnd)
      break
    case RECORD_IS_SIDECHAIN:
      facts.seen |= SEEN_IS_SIDECHAIN
      facts.isSidechain = isLiteralTrue(bytes, at, valueEnd)
      break
    case RECORD_IS_COMPACT_SUMMARY:
      facts.seen |= SEEN_IS_COMPACT_SUMMARY
      facts.isCompactSummary = isLiteralTrue(bytes, at, valueEnd)
      break
    case MESSAGE_ID:
      facts.idOpen = open
      facts.idClose = close
      break
    case MESSAGE_CONTENT:
      facts.resetContent()
      if (open !== -1) {
        facts.contentKind = CONTENT_STRING
        facts.contentOpen = open
        facts.contentClose = close
      }
      break
    case MESSAGE_USAGE:
      facts.resetUsage()
      break
    case USAGE_INPUT:
      facts.inputTokens = tokenCount(bytes, at, valueEnd)
      break
    case USAGE_OUTPUT:
      facts.outputTokens = tokenCount(bytes, at, valueEnd)
      break
    case USAGE_CACHE_CREATION:
      facts.cacheCreationTokens = tokenCount(bytes, at, valueEnd)
      break
    case USAGE_CACHE_READ:
      facts.cacheReadTokens = tokenCount(bytes, at, valueEnd)
      break
    case BLOCK_TYPE:
      block.kind = blockKindOf(bytes, open, close)
      return block.kind === -1 ? WALK_FAILED : valueEnd
    case BLOCK_ID:
      block.idOpen = open
      block.idClose = close
      break
    case BLOCK_NAME:
      block.nameOpen = open
      block.nameClose = close
      break
    case BLOCK_TEXT_FIELD:
      block.textOpen = open
      block.textClose = close
      break
    case BLOCK_INPUT:
      block.inputStart = at
      block.inputEnd = valueEnd
      break
    case BLOCK_IS_ERROR:
      block.isError = isLiteralTrue(bytes, at, valueEnd)
      break
  }
  return valueEnd
}
