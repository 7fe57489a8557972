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
 *   settled by that alone, found by native searches without reading the line.
 * - The flat envelope before `"message":{` is jumped over. When the rest of the line lacks what the
 *   counts need (the type, the timestamp, or a human prompt's flags), the record is walked again
 *   from its start, key by key.
 * - Once a user record shows a tool result and a timestamp, the rest of the line (the large
 *   `toolUseResult` copy) is not read: it cannot change the counts.
 *
 * So bytes that are never read are never validated. A line that does not start with `{` and end
 * with `}` (a cut-off write) always goes to JSON.parse and counts as unparsable; a record damaged
 * somewhere inside but ending in `}` could be counted as read. Claude Code's damage is cut-off lines.
 */
import { BYTE, skipWhitespace } from './json-bytes.ts'
import {
  LineFacts,
  RECORD_ASSISTANT,
  RECORD_OTHER,
  RECORD_USER,
  SEEN_FLAGS,
  SEEN_TIMESTAMP,
  SEEN_TYPE,
} from './line-facts.ts'
import { readRecordType, WALK_FAILED } from './member-fields.ts'
import { WALK_STOPPED, walkMembers, walkRecord } from './member-walker.ts'

/** The walk cannot vouch for the line: read it with JSON.parse. */
export const WALK_BAIL = 0
/** Not a user or assistant record: it counts nothing. */
export const WALK_SKIP = 1
/** A user or assistant record; its facts are ready to count. */
export const WALK_COUNT = 2

/** No `{` or `[` left in the chunk: a position past any line (an integer, as the other positions). */
const NOT_FOUND = 0x7fffffff

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
      if (readRecordType(bytes, typeKey + 7, end, facts) === WALK_FAILED) return WALK_BAIL
      if (facts.recordType === RECORD_OTHER) return WALK_SKIP
    }
    if (opener < end && bytes[opener] === BYTE.openBrace && isMessageKeyBefore(bytes, opener)) {
      const verdict = this.walkFromMessage(bytes, opener, end)
      if (verdict !== WALK_BAIL) return verdict
      facts.reset() // the envelope may matter, or an escape or a space got in the way: walk it all
    }
    return verdictOf(facts, walkRecord(bytes, start, end, facts), bytes, end)
  }

  /**
   * Walks the message and what follows it, leaving the envelope before it unread; WALK_BAIL when
   * the counts need something the envelope may hold.
   */
  private walkFromMessage(bytes: Uint8Array, opener: number, end: number): number {
    const facts = this.facts
    const walked = walkMembers(bytes, opener - MESSAGE_KEY_LENGTH, end, facts)
    const verdict = verdictOf(facts, walked, bytes, end)
    if (walked === WALK_STOPPED || verdict === WALK_BAIL) return verdict
    const human = facts.recordType !== RECORD_ASSISTANT && facts.toolResults === 0
    const needed = SEEN_TYPE | SEEN_TIMESTAMP | (human ? SEEN_FLAGS : 0)
    return (facts.seen & needed) === needed ? verdict : WALK_BAIL
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
      this.nextBrace = found === -1 ? NOT_FOUND : found
    }
    if (this.nextBracket < from) {
      const found = bytes.indexOf(BYTE.openBracket, from)
      this.nextBracket = found === -1 ? NOT_FOUND : found
    }
    return Math.min(this.nextBrace, this.nextBracket)
  }
}

/** The last byte of the line that is not whitespace. */
function lastByte(bytes: Uint8Array, start: number, end: number): number | undefined {
  let index = end - 1
  while (index > start && (bytes[index] === 13 || bytes[index] === 32 || bytes[index] === 9))
    index--
  return bytes[index]
}

/** The verdict of a record walked to its end (or stopped early). */
function verdictOf(facts: LineFacts, walked: number, bytes: Uint8Array, end: number): number {
  if (walked === WALK_STOPPED) return facts.recordType === RECORD_OTHER ? WALK_SKIP : WALK_COUNT
  if (walked === WALK_FAILED || skipWhitespace(bytes, walked, end) !== end) return WALK_BAIL
  return settled(facts)
}

/** A record walked to its end counts if it is a user or assistant one. */
function settled(facts: LineFacts): number {
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
    bytes[quote + 1] === 109 && // m
    bytes[quote + 2] === 101 && // e
    bytes[quote + 3] === 115 && // s
    bytes[quote + 4] === 115 && // s
    bytes[quote + 5] === 97 && // a
    bytes[quote + 6] === 103 && // g
    bytes[quote + 7] === 101 && // e
    isKeyStart(bytes, quote)
  )
}
