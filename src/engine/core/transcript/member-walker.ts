/**
 * The byte-level walk of a record's members into LineFacts: the record's own keys, its message,
 * the message's usage and content blocks. Part of the fast path (record-walker.ts); what each key
 * means is in member-fields.ts.
 *
 * One loop walks every level (the record, its message, usage, content, a block), keeping where it
 * is in a variable instead of calling itself: a whole record's walk is one function, which V8
 * compiles once, early, instead of a function per level, each compiled (and inlined) on its own.
 * Values nobody needs are skipped unread. Compact JSON (what Claude Code writes) is checked byte
 * for byte, and whitespace is skipped only where a byte is not the expected one, so it costs
 * nothing when there is none.
 */
import { BYTE, skipValue, skipWhitespace } from './json-bytes.ts'
import {
  BLOCK_TOOL_RESULT,
  CONTENT_ARRAY,
  type LineFacts,
  RECORD_OTHER,
  RECORD_USER,
  SEEN_TIMESTAMP,
} from './line-facts.ts'
import {
  FIELD_NONE,
  fieldOf,
  IN_BLOCK,
  IN_CONTENT,
  IN_MESSAGE,
  IN_RECORD,
  IN_USAGE,
  MESSAGE_CONTENT,
  MESSAGE_USAGE,
  RECORD_MESSAGE,
  readValue,
  WALK_FAILED,
} from './member-fields.ts'

/** The walk stopped early: the record's facts already settle its counts (see `settledEarly`). */
export const WALK_STOPPED = -2

/** Walks the record whose `{` is at `at`; returns the index past its `}`, or WALK_STOPPED/FAILED. */
export function walkRecord(bytes: Uint8Array, at: number, end: number, facts: LineFacts): number {
  const first = skipWhitespace(bytes, at + 1, end)
  if (bytes[first] === BYTE.closeBrace) return first + 1
  return walkMembers(bytes, first, end, facts)
}

/**
 * Walks the record from the key whose quote is at `at` (a key of the record itself) to the
 * record's `}`; returns the index past it. Stops (WALK_STOPPED) as soon as the rest of the record
 * cannot change the counts.
 */
export function walkMembers(bytes: Uint8Array, at: number, end: number, facts: LineFacts): number {
  let index = at
  let where = IN_RECORD
  for (;;) {
    // One member: an element of the content array, or a key and its value.
    if (where === IN_CONTENT) {
      if (bytes[index] === BYTE.openBrace) {
        facts.nextBlock()
        where = IN_BLOCK
        index = skipWhitespace(bytes, index + 1, end)
        if (bytes[index] === BYTE.quote) continue
        if (bytes[index] !== BYTE.closeBrace) return WALK_FAILED
      } else {
        index = skipValue(bytes, index, end)
        if (index < 0) return WALK_FAILED
      }
    } else {
      if (bytes[index] !== BYTE.quote) return WALK_FAILED
      const keyStart = index + 1
      let keyClose = keyStart
      for (;;) {
        if (keyClose >= end) return WALK_FAILED
        const byte = bytes[keyClose]
        if (byte === BYTE.quote) break
        if (byte === BYTE.backslash) return WALK_FAILED // an escaped key might spell one that matters
        keyClose++
      }
      index = keyClose + 1
      if (bytes[index] !== BYTE.colon) {
        index = skipWhitespace(bytes, index, end)
        if (bytes[index] !== BYTE.colon) return WALK_FAILED
      }
      index++
      if ((bytes[index] as number) <= BYTE.space) index = skipWhitespace(bytes, index, end)
      const field = fieldOf(bytes, keyStart, keyClose, where)
      const first = bytes[index]
      if (field === FIELD_NONE) index = skipValue(bytes, index, end)
      else if (field === RECORD_MESSAGE && first === BYTE.openBrace) {
        facts.resetMessage()
        where = IN_MESSAGE
        index = skipWhitespace(bytes, index + 1, end)
        if (bytes[index] === BYTE.quote) continue
        if (bytes[index] !== BYTE.closeBrace) return WALK_FAILED
      } else if (field === MESSAGE_USAGE && first === BYTE.openBrace) {
        facts.resetUsage()
        where = IN_USAGE
        index = skipWhitespace(bytes, index + 1, end)
        if (bytes[index] === BYTE.quote) continue
        if (bytes[index] !== BYTE.closeBrace) return WALK_FAILED
      } else if (field === MESSAGE_CONTENT && first === BYTE.openBracket) {
        facts.resetContent()
        facts.contentKind = CONTENT_ARRAY
        where = IN_CONTENT
        index = skipWhitespace(bytes, index + 1, end)
        if (bytes[index] !== BYTE.closeBracket) continue
      } else index = readValue(bytes, index, end, field, facts)
      if (index < 0) return WALK_FAILED
      if (where === IN_RECORD && settledEarly(facts)) return WALK_STOPPED
    }
    // After a value: a comma leads to the next member, a closing bracket ends where the walk is.
    for (;;) {
      let byte = bytes[index]
      if (byte !== BYTE.comma && byte !== BYTE.closeBrace && byte !== BYTE.closeBracket) {
        index = skipWhitespace(bytes, index, end)
        byte = bytes[index]
      }
      if (byte === BYTE.comma) {
        index++
        if (bytes[index] !== BYTE.quote) index = skipWhitespace(bytes, index, end)
        break
      }
      if (byte !== (where === IN_CONTENT ? BYTE.closeBracket : BYTE.closeBrace)) return WALK_FAILED
      index++
      if (where === IN_RECORD) return index
      if (where === IN_BLOCK) {
        if (facts.currentBlock.kind === BLOCK_TOOL_RESULT) facts.toolResults++
        where = IN_CONTENT
      } else if (where === IN_MESSAGE) {
        where = IN_RECORD
        if (settledEarly(facts)) return WALK_STOPPED
      } else where = IN_MESSAGE
    }
  }
}

/**
 * True when the record's facts settle its counts whatever follows: it is neither a user nor an
 * assistant record, or it is a user record whose tool results and timestamp have been read (the
 * rest, a large `toolUseResult` copy, cannot change them).
 */
export function settledEarly(facts: LineFacts): boolean {
  return (
    facts.recordType === RECORD_OTHER ||
    (facts.recordType === RECORD_USER &&
      facts.toolResults > 0 &&
      facts.hasMessage &&
      (facts.seen & SEEN_TIMESTAMP) !== 0)
  )
}
