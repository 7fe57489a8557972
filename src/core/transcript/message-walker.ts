/**
 * The byte-level walk of a record's `message` object: its id, its usage numbers and the spans of
 * its content blocks, into LineFacts. Part of the fast path (record-walker.ts); every function
 * returns the index past what it walked, or -1 when the walk cannot vouch for the bytes.
 */
import {
  asciiBytes,
  BYTE,
  hasBackslash,
  isLiteralTrue,
  plainKeyEnd,
  readNumber,
  skipValue,
  skipWhitespace,
  spanEquals,
} from './json-bytes.ts'
import {
  BLOCK_IMAGE,
  BLOCK_OTHER,
  BLOCK_TEXT,
  BLOCK_TOOL_RESULT,
  BLOCK_TOOL_USE,
  type BlockSpans,
  CONTENT_ARRAY,
  CONTENT_STRING,
  type LineFacts,
} from './line-facts.ts'

const NAME = {
  type: asciiBytes('type'),
  id: asciiBytes('id'),
  usage: asciiBytes('usage'),
  content: asciiBytes('content'),
  inputTokens: asciiBytes('input_tokens'),
  outputTokens: asciiBytes('output_tokens'),
  cacheCreation: asciiBytes('cache_creation_input_tokens'),
  cacheRead: asciiBytes('cache_read_input_tokens'),
  name: asciiBytes('name'),
  input: asciiBytes('input'),
  text: asciiBytes('text'),
  isError: asciiBytes('is_error'),
  toolUse: asciiBytes('tool_use'),
  toolResult: asciiBytes('tool_result'),
  image: asciiBytes('image'),
}

/** Walks the `message` object at `at` into `facts`; returns the index past it, or -1. */
export function walkMessage(bytes: Uint8Array, at: number, end: number, facts: LineFacts): number {
  facts.resetMessage()
  let index = skipWhitespace(bytes, at + 1, end)
  if (bytes[index] === BYTE.closeBrace) return index + 1
  for (;;) {
    const keyClose = plainKeyEnd(bytes, index, end)
    if (keyClose === -1) return -1
    const keyStart = index + 1
    index = skipWhitespace(bytes, keyClose + 1, end)
    if (bytes[index] !== BYTE.colon) return -1
    const valueAt = skipWhitespace(bytes, index + 1, end)
    const first = bytes[valueAt]
    let valueEnd: number
    if (spanEquals(bytes, keyStart, keyClose, NAME.content)) {
      facts.resetContent()
      if (first === BYTE.openBracket) {
        facts.contentKind = CONTENT_ARRAY
        valueEnd = walkContent(bytes, valueAt, end, facts)
      } else {
        valueEnd = skipValue(bytes, valueAt, end)
        if (first === BYTE.quote) {
          facts.contentKind = CONTENT_STRING
          facts.contentOpen = valueAt
          facts.contentClose = valueEnd - 1
        }
      }
    } else if (spanEquals(bytes, keyStart, keyClose, NAME.usage)) {
      facts.resetUsage()
      valueEnd =
        first === BYTE.openBrace
          ? walkUsage(bytes, valueAt, end, facts)
          : skipValue(bytes, valueAt, end)
    } else {
      valueEnd = skipValue(bytes, valueAt, end)
      if (spanEquals(bytes, keyStart, keyClose, NAME.id)) {
        facts.idOpen = first === BYTE.quote ? valueAt : -1
        facts.idClose = valueEnd - 1
      }
    }
    if (valueEnd === -1) return -1
    index = skipWhitespace(bytes, valueEnd, end)
    if (bytes[index] === BYTE.closeBrace) return index + 1
    if (bytes[index] !== BYTE.comma) return -1
    index = skipWhitespace(bytes, index + 1, end)
  }
}

function walkUsage(bytes: Uint8Array, at: number, end: number, facts: LineFacts): number {
  let index = skipWhitespace(bytes, at + 1, end)
  if (bytes[index] === BYTE.closeBrace) return index + 1
  for (;;) {
    const keyClose = plainKeyEnd(bytes, index, end)
    if (keyClose === -1) return -1
    const keyStart = index + 1
    index = skipWhitespace(bytes, keyClose + 1, end)
    if (bytes[index] !== BYTE.colon) return -1
    const valueAt = skipWhitespace(bytes, index + 1, end)
    const valueEnd = skipValue(bytes, valueAt, end)
    if (valueEnd === -1) return -1
    if (keyClose - keyStart >= 12) {
      if (spanEquals(bytes, keyStart, keyClose, NAME.inputTokens)) {
        facts.inputTokens = numberAt(bytes, valueAt, valueEnd)
      } else if (spanEquals(bytes, keyStart, keyClose, NAME.outputTokens)) {
        facts.outputTokens = numberAt(bytes, valueAt, valueEnd)
      } else if (spanEquals(bytes, keyStart, keyClose, NAME.cacheCreation)) {
        facts.cacheCreationTokens = numberAt(bytes, valueAt, valueEnd)
      } else if (spanEquals(bytes, keyStart, keyClose, NAME.cacheRead)) {
        facts.cacheReadTokens = numberAt(bytes, valueAt, valueEnd)
      }
    }
    index = skipWhitespace(bytes, valueEnd, end)
    if (bytes[index] === BYTE.closeBrace) return index + 1
    if (bytes[index] !== BYTE.comma) return -1
    index = skipWhitespace(bytes, index + 1, end)
  }
}

function walkContent(bytes: Uint8Array, at: number, end: number, facts: LineFacts): number {
  let index = skipWhitespace(bytes, at + 1, end)
  if (bytes[index] === BYTE.closeBracket) return index + 1
  for (;;) {
    let valueEnd: number
    if (bytes[index] === BYTE.openBrace) {
      const block = facts.nextBlock()
      valueEnd = walkBlock(bytes, index, end, block)
      if (block.kind === BLOCK_TOOL_RESULT) facts.toolResults++
    } else valueEnd = skipValue(bytes, index, end)
    if (valueEnd === -1) return -1
    index = skipWhitespace(bytes, valueEnd, end)
    if (bytes[index] === BYTE.closeBracket) return index + 1
    if (bytes[index] !== BYTE.comma) return -1
    index = skipWhitespace(bytes, index + 1, end)
  }
}

function walkBlock(bytes: Uint8Array, at: number, end: number, block: BlockSpans): number {
  let index = skipWhitespace(bytes, at + 1, end)
  if (bytes[index] === BYTE.closeBrace) return index + 1
  for (;;) {
    const keyClose = plainKeyEnd(bytes, index, end)
    if (keyClose === -1) return -1
    const keyStart = index + 1
    index = skipWhitespace(bytes, keyClose + 1, end)
    if (bytes[index] !== BYTE.colon) return -1
    const valueAt = skipWhitespace(bytes, index + 1, end)
    const valueEnd = skipValue(bytes, valueAt, end)
    if (valueEnd === -1) return -1
    const open = bytes[valueAt] === BYTE.quote ? valueAt : -1
    switch (keyClose - keyStart) {
      case 2:
        if (spanEquals(bytes, keyStart, keyClose, NAME.id)) {
          block.idOpen = open
          block.idClose = valueEnd - 1
        }
        break
      case 4:
        if (spanEquals(bytes, keyStart, keyClose, NAME.type)) {
          block.kind = open === -1 ? BLOCK_OTHER : blockKind(bytes, open, valueEnd - 1)
          if (block.kind === -1) return -1
        } else if (spanEquals(bytes, keyStart, keyClose, NAME.name)) {
          block.nameOpen = open
          block.nameClose = valueEnd - 1
        } else if (spanEquals(bytes, keyStart, keyClose, NAME.text)) {
          block.textOpen = open
          block.textClose = valueEnd - 1
        }
        break
      case 5:
        if (spanEquals(bytes, keyStart, keyClose, NAME.input)) {
          block.inputStart = valueAt
          block.inputEnd = valueEnd
        }
        break
      case 8:
        if (spanEquals(bytes, keyStart, keyClose, NAME.isError)) {
          block.isError = isLiteralTrue(bytes, valueAt, valueEnd)
        }
        break
    }
    index = skipWhitespace(bytes, valueEnd, end)
    if (bytes[index] === BYTE.closeBrace) return index + 1
    if (bytes[index] !== BYTE.comma) return -1
    index = skipWhitespace(bytes, index + 1, end)
  }
}

/** The kind of block a `type` string names; -1 when it holds an escape (JSON.parse must decide). */
function blockKind(bytes: Uint8Array, open: number, close: number): number {
  const start = open + 1
  if (spanEquals(bytes, start, close, NAME.text)) return BLOCK_TEXT
  if (spanEquals(bytes, start, close, NAME.toolUse)) return BLOCK_TOOL_USE
  if (spanEquals(bytes, start, close, NAME.toolResult)) return BLOCK_TOOL_RESULT
  if (spanEquals(bytes, start, close, NAME.image)) return BLOCK_IMAGE
  return hasBackslash(bytes, start, close) ? -1 : BLOCK_OTHER
}

/** A usage number as the structural path reads it: positive finite numbers, else 0. */
function numberAt(bytes: Uint8Array, at: number, valueEnd: number): number {
  const value = readNumber(bytes, at, valueEnd)
  return Number.isFinite(value) && value > 0 ? value : 0
}
