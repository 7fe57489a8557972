/**
 * The fast path: walks one JSONL line's bytes and records, in LineFacts, only what the counts need
 * (record type, timestamp, flags, message id, usage, content blocks); everything else is skipped
 * unread. It never guesses: anything unusual (escaped keys or types, a cut-off value, a stray
 * byte) makes `walk` return WALK_BAIL and the line goes to JSON.parse instead.
 *
 * Three shortcuts, all exact for compact JSON without duplicate keys (what Claude Code writes with
 * JSON.stringify):
 * - A top-level key that comes before the line's first `{` or `[` sits in a flat run of scalars, so
 *   `,"type":"` there can only be the record's own type. Progress, system and snapshot records are
 *   settled by that alone.
 * - The flat envelope before `"message":{` is jumped over, and read only when the rest of the line
 *   lacks what the counts need (the type, the timestamp, or a human prompt's flags).
 * - Once a user record shows a tool result and a timestamp, the rest of the line (the large
 *   `toolUseResult` copy) is not read: it cannot change the counts.
 *
 * So bytes that are never read are never validated. A line that does not start with `{` and end
 * with `}` (a cut-off write) always goes to JSON.parse and counts as unparsable; a record damaged
 * somewhere inside but ending in `}` could be counted as read. Claude Code's damage is cut-off lines.
 */
import {
  asciiBytes,
  BYTE,
  hasBackslash,
  isLiteralTrue,
  plainKeyEnd,
  skipValue,
  skipWhitespace,
  spanEquals,
} from './json-bytes.ts'
import {
  LineFacts,
  RECORD_ASSISTANT,
  RECORD_OTHER,
  RECORD_USER,
  SEEN_FLAGS,
  SEEN_IS_COMPACT_SUMMARY,
  SEEN_IS_META,
  SEEN_IS_SIDECHAIN,
  SEEN_TIMESTAMP,
  SEEN_TYPE,
} from './line-facts.ts'
import { walkMessage } from './message-walker.ts'

/** The walk cannot vouch for the line: read it with JSON.parse. */
export const WALK_BAIL = 0
/** Not a user or assistant record: it counts nothing. */
export const WALK_SKIP = 1
/** A user or assistant record; its facts are ready to count. */
export const WALK_COUNT = 2
/** Internal: the walk reached the record's closing brace. */
const WALK_END = 3

const NAME = {
  type: asciiBytes('type'),
  timestamp: asciiBytes('timestamp'),
  message: asciiBytes('message'),
  isMeta: asciiBytes('isMeta'),
  isSidechain: asciiBytes('isSidechain'),
  isCompactSummary: asciiBytes('isCompactSummary'),
  user: asciiBytes('user'),
  assistant: asciiBytes('assistant'),
}

/** `"message":` before the `{` it opens. */
const MESSAGE_KEY_LENGTH = 10

/** Walks lines into LineFacts; one instance per analyzer. */
export class RecordWalker {
  /** The facts of the last walked line. */
  readonly facts = new LineFacts()
  private openerBytes: Uint8Array | null = null
  private nextBrace = 0
  private nextBracket = 0
  private openerFrom = 0

  /** Forgets remembered bracket positions; call whenever the bytes being walked change. */
  beginChunk(): void {
    this.openerBytes = null
  }

  /** Walks the line `bytes[start, end)` (`start` at its first non-blank byte). */
  walk(bytes: Uint8Array, start: number, end: number): number {
    const facts = this.facts
    facts.reset()
    if (bytes[start] !== BYTE.openBrace || lastByte(bytes, start, end) !== BYTE.closeBrace) {
      return WALK_BAIL // not an object, or cut off: JSON.parse decides (and counts it unparsable)
    }
    const opener = this.firstOpener(bytes, start + 1)
    const typeKey = findTypeKey(bytes, start, end)
    if (typeKey !== -1 && typeKey < opener && isKeyStart(bytes, typeKey)) {
      if (this.readType(bytes, typeKey + 7, end) === -1) return WALK_BAIL
      if (facts.recordType === RECORD_OTHER) return WALK_SKIP
    }
    if (opener < end && bytes[opener] === BYTE.openBrace && isMessageKeyBefore(bytes, opener)) {
      const verdict = this.walkFromMessage(bytes, start, opener, end)
      if (verdict !== WALK_BAIL) return verdict
      facts.reset() // an escape or a space in the envelope: walk it key by key instead
    }
    return settled(facts, this.walkKeys(bytes, skipWhitespace(bytes, start + 1, end), end))
  }

  /** Walks the message and what follows it; reads the envelope before it only if needed. */
  private walkFromMessage(bytes: Uint8Array, start: number, opener: number, end: number): number {
    const facts = this.facts
    let at = walkMessage(bytes, opener, end, this.facts)
    if (at === -1) return WALK_BAIL
    at = skipWhitespace(bytes, at, end)
    let verdict: number
    if (bytes[at] === BYTE.closeBrace)
      verdict = skipWhitespace(bytes, at + 1, end) === end ? WALK_END : WALK_BAIL
    else if (bytes[at] === BYTE.comma)
      verdict = this.walkKeys(bytes, skipWhitespace(bytes, at + 1, end), end)
    else verdict = WALK_BAIL
    if (verdict !== WALK_END) return verdict
    const human = facts.recordType !== RECORD_ASSISTANT && facts.toolResults === 0
    const needed = SEEN_TYPE | SEEN_TIMESTAMP | (human ? SEEN_FLAGS : 0)
    if ((facts.seen & needed) !== needed) {
      if (!this.scanFlatKeys(bytes, start + 1, opener - MESSAGE_KEY_LENGTH, end)) return WALK_BAIL
    }
    return settled(facts, WALK_END)
  }

  /** The first `{` or `[` at or after `from` (remembered, so a chunk is searched once). */
  private firstOpener(bytes: Uint8Array, from: number): number {
    if (this.openerBytes !== bytes || from < this.openerFrom) {
      this.openerBytes = bytes
      this.nextBrace = this.nextBracket = -1
    }
    this.openerFrom = from
    if (this.nextBrace < from) {
      const found = bytes.indexOf(BYTE.openBrace, from)
      this.nextBrace = found === -1 ? Number.POSITIVE_INFINITY : found
    }
    if (this.nextBracket < from) {
      const found = bytes.indexOf(BYTE.openBracket, from)
      this.nextBracket = found === -1 ? Number.POSITIVE_INFINITY : found
    }
    return Math.min(this.nextBrace, this.nextBracket)
  }

  /**
   * Reads the top-level keys that matter from a flat run of scalars `bytes[from, to)`, by looking
   * only at the keys that start with `t` or `i`. False when the run holds an escape (a key could
   * hide behind one) or is not compact: the caller then walks the line key by key.
   */
  private scanFlatKeys(bytes: Uint8Array, from: number, to: number, end: number): boolean {
    const facts = this.facts
    const later = facts.seen // keys read after the envelope win, as the last duplicate does in JSON.parse
    for (let index = from; index < to; index++) {
      const byte = bytes[index]
      if (byte === BYTE.backslash) return false
      if (byte !== BYTE.quote || !isKeyStart(bytes, index)) continue
      const first = bytes[index + 1]
      if (first !== 116 && first !== 105) continue // type, timestamp, isMeta, isSidechain, ...
      const keyClose = plainKeyEnd(bytes, index, to)
      if (keyClose === -1 || bytes[keyClose + 1] !== BYTE.colon) return false
      const valueAt = skipWhitespace(bytes, keyClose + 2, end)
      const bit = seenBitOf(bytes, index + 1, keyClose)
      if (bit !== 0 && (later & bit) !== 0) continue
      if (this.topLevelValue(bytes, index + 1, keyClose, valueAt, end) === -1) return false
    }
    return true
  }

  private walkKeys(bytes: Uint8Array, at: number, end: number): number {
    const facts = this.facts
    for (;;) {
      const keyClose = plainKeyEnd(bytes, at, end)
      if (keyClose === -1) return WALK_BAIL
      let valueAt = skipWhitespace(bytes, keyClose + 1, end)
      if (bytes[valueAt] !== BYTE.colon) return WALK_BAIL
      valueAt = skipWhitespace(bytes, valueAt + 1, end)
      const valueEnd = this.topLevelValue(bytes, at + 1, keyClose, valueAt, end)
      if (valueEnd === -1) return WALK_BAIL
      if (facts.recordType === RECORD_OTHER) return WALK_SKIP
      if (
        facts.recordType === RECORD_USER &&
        facts.hasMessage &&
        facts.toolResults > 0 &&
        (facts.seen & SEEN_TIMESTAMP) !== 0
      ) {
        return WALK_COUNT
      }
      at = skipWhitespace(bytes, valueEnd, end)
      if (bytes[at] === BYTE.closeBrace)
        return skipWhitespace(bytes, at + 1, end) === end ? WALK_END : WALK_BAIL
      if (bytes[at] !== BYTE.comma) return WALK_BAIL
      at = skipWhitespace(bytes, at + 1, end)
    }
  }

  /** Reads one top-level value; returns the index past it, or -1. */
  private topLevelValue(
    bytes: Uint8Array,
    keyStart: number,
    keyClose: number,
    at: number,
    end: number,
  ): number {
    const facts = this.facts
    switch (keyClose - keyStart) {
      case 4:
        if (spanEquals(bytes, keyStart, keyClose, NAME.type)) return this.readType(bytes, at, end)
        break
      case 9:
        if (spanEquals(bytes, keyStart, keyClose, NAME.timestamp)) {
          facts.seen |= SEEN_TIMESTAMP
          const valueEnd = skipValue(bytes, at, end)
          facts.timestampOpen = bytes[at] === BYTE.quote ? at : -1
          facts.timestampClose = valueEnd - 1
          return valueEnd
        }
        break
      case 7:
        if (spanEquals(bytes, keyStart, keyClose, NAME.message)) {
          if (bytes[at] === BYTE.openBrace) return walkMessage(bytes, at, end, facts)
          facts.hasMessage = false
        }
        break
      case 6:
        if (spanEquals(bytes, keyStart, keyClose, NAME.isMeta)) {
          facts.seen |= SEEN_IS_META
          const valueEnd = skipValue(bytes, at, end)
          facts.isMeta = isLiteralTrue(bytes, at, valueEnd)
          return valueEnd
        }
        break
      case 11:
        if (spanEquals(bytes, keyStart, keyClose, NAME.isSidechain)) {
          facts.seen |= SEEN_IS_SIDECHAIN
          const valueEnd = skipValue(bytes, at, end)
          facts.isSidechain = isLiteralTrue(bytes, at, valueEnd)
          return valueEnd
        }
        break
      case 16:
        if (spanEquals(bytes, keyStart, keyClose, NAME.isCompactSummary)) {
          facts.seen |= SEEN_IS_COMPACT_SUMMARY
          const valueEnd = skipValue(bytes, at, end)
          facts.isCompactSummary = isLiteralTrue(bytes, at, valueEnd)
          return valueEnd
        }
        break
    }
    return skipValue(bytes, at, end)
  }

  private readType(bytes: Uint8Array, at: number, end: number): number {
    const facts = this.facts
    facts.seen |= SEEN_TYPE
    const valueEnd = skipValue(bytes, at, end)
    if (valueEnd === -1) return -1
    if (bytes[at] !== BYTE.quote) facts.recordType = RECORD_OTHER
    else if (spanEquals(bytes, at + 1, valueEnd - 1, NAME.user)) facts.recordType = RECORD_USER
    else if (spanEquals(bytes, at + 1, valueEnd - 1, NAME.assistant))
      facts.recordType = RECORD_ASSISTANT
    else if (hasBackslash(bytes, at + 1, valueEnd - 1))
      return -1 // might still spell "user"
    else facts.recordType = RECORD_OTHER
    return valueEnd
  }
}

/** The SEEN_* bit of a top-level key (0 for keys the counts ignore). */
function seenBitOf(bytes: Uint8Array, keyStart: number, keyClose: number): number {
  if (spanEquals(bytes, keyStart, keyClose, NAME.type)) return SEEN_TYPE
  if (spanEquals(bytes, keyStart, keyClose, NAME.timestamp)) return SEEN_TIMESTAMP
  if (spanEquals(bytes, keyStart, keyClose, NAME.isMeta)) return SEEN_IS_META
  if (spanEquals(bytes, keyStart, keyClose, NAME.isSidechain)) return SEEN_IS_SIDECHAIN
  if (spanEquals(bytes, keyStart, keyClose, NAME.isCompactSummary)) return SEEN_IS_COMPACT_SUMMARY
  return 0
}

/** The last byte of the line that is not whitespace. */
function lastByte(bytes: Uint8Array, start: number, end: number): number | undefined {
  let index = end - 1
  while (index > start && (bytes[index] === 13 || bytes[index] === 32 || bytes[index] === 9))
    index--
  return bytes[index]
}

/** The final verdict once the walk is over: a record counts if it is a user or assistant one. */
function settled(facts: LineFacts, verdict: number): number {
  if (verdict !== WALK_END) return verdict
  const type = facts.recordType
  return type === RECORD_USER || type === RECORD_ASSISTANT ? WALK_COUNT : WALK_SKIP
}

/**
 * Index of the first `"type":"` in `bytes[from, end)`, or -1. Hops between `y` bytes with the
 * native search: `y` is rare in the UUIDs and paths of a record's envelope.
 */
function findTypeKey(bytes: Uint8Array, from: number, end: number): number {
  let at = from + 2
  for (;;) {
    const y = bytes.indexOf(121, at)
    if (y === -1 || y + 5 >= end) return -1
    if (
      bytes[y - 1] === 116 &&
      bytes[y - 2] === BYTE.quote &&
      bytes[y + 1] === 112 &&
      bytes[y + 2] === 101 &&
      bytes[y + 3] === BYTE.quote &&
      bytes[y + 4] === BYTE.colon &&
      bytes[y + 5] === BYTE.quote
    ) {
      return y - 2
    }
    at = y + 1
  }
}

/** A quote right after `,` or `{` opens a key (in valid JSON such a quote cannot close a string). */
function isKeyStart(bytes: Uint8Array, quote: number): boolean {
  const before = bytes[quote - 1]
  return before === BYTE.comma || before === BYTE.openBrace
}

/** True when `"message":` ends just before `opener`, as a key. */
function isMessageKeyBefore(bytes: Uint8Array, opener: number): boolean {
  const quote = opener - MESSAGE_KEY_LENGTH
  return (
    bytes[opener - 1] === BYTE.colon &&
    bytes[opener - 2] === BYTE.quote &&
    bytes[quote] === BYTE.quote &&
    spanEquals(bytes, quote + 1, opener - 2, NAME.message) &&
    isKeyStart(bytes, quote)
  )
}
