/**
 * Token usage per assistant message. Claude Code writes one record per content block, each with
 * the message's id and usage (the streamed output count grows), so a message's usage is the
 * largest value seen per field. Totals are summed once, at the end, in a fixed order (messages
 * with an id in first-seen order, then those without), so they do not depend on record order.
 */
import { bytesMatch, decodeString } from './json-bytes.ts'

/** Token usage of one assistant message, as `message.usage` reports it. */
export interface MessageUsage {
  input: number
  output: number
  cacheCreation: number
  cacheRead: number
}

/** Numbers kept per message: input, output, cache creation, cache read. */
const FIELDS = 4

/** Usage per message, and the totals over all messages. */
export class MessageUsageTable {
  /** Message ids and their number (first-seen order). */
  private readonly keys = new Map<string, number>()
  /** FIELDS numbers per message id, by number. */
  private byKey: Float64Array = new Float64Array(FIELDS * 4096)
  /** FIELDS numbers per message without an id, in file order. */
  private anonymous: Float64Array = new Float64Array(FIELDS * 16)
  private anonymousCount = 0
  /** The last id's bytes and number: a message's records come one after another. */
  private previousId = new Uint8Array(64)
  private previousIdLength = -1
  private previousKey = 0

  /** Messages seen: each id once, each message without an id on its own. */
  get messages(): number {
    return this.keys.size + this.anonymousCount
  }

  /** One record's usage; `id` null for a message without one. */
  add(id: string | null, input: number, output: number, cacheCreation: number, cacheRead: number) {
    if (id === null) this.addAnonymous(input, output, cacheCreation, cacheRead)
    else this.addToKey(this.keyOf(id), input, output, cacheCreation, cacheRead)
  }

  /** Same as `add`, with the id as the JSON string whose quotes are at `open` and `close`. */
  addBytes(
    bytes: Uint8Array,
    open: number,
    close: number,
    input: number,
    output: number,
    cacheCreation: number,
    cacheRead: number,
  ): void {
    const length = close - open - 1
    if (length !== this.previousIdLength || !bytesMatch(bytes, open + 1, this.previousId, length)) {
      this.previousKey = this.keyOf(decodeString(bytes, open, close))
      if (length > this.previousId.length) this.previousId = new Uint8Array(length * 2)
      for (let index = 0; index < length; index++) {
        this.previousId[index] = bytes[open + 1 + index] as number
      }
      this.previousIdLength = length
    }
    this.addToKey(this.previousKey, input, output, cacheCreation, cacheRead)
  }

  /** The totals, summed in a fixed order (see the file comment). */
  totals(): MessageUsage {
    return {
      input: this.sum(0),
      output: this.sum(1),
      cacheCreation: this.sum(2),
      cacheRead: this.sum(3),
    }
  }

  private sum(field: number): number {
    let total = 0
    for (let at = field; at < this.keys.size * FIELDS; at += FIELDS)
      total += this.byKey[at] as number
    for (let at = field; at < this.anonymousCount * FIELDS; at += FIELDS) {
      total += this.anonymous[at] as number
    }
    return total
  }

  private keyOf(id: string): number {
    let key = this.keys.get(id)
    if (key === undefined) {
      key = this.keys.size
      this.keys.set(id, key)
      if (key * FIELDS >= this.byKey.length) this.byKey = grown(this.byKey)
    }
    return key
  }

  private addToKey(
    key: number,
    input: number,
    output: number,
    cacheCreation: number,
    cacheRead: number,
  ): void {
    const known = this.byKey
    const at = key * FIELDS
    known[at] = Math.max(known[at] as number, input)
    known[at + 1] = Math.max(known[at + 1] as number, output)
    known[at + 2] = Math.max(known[at + 2] as number, cacheCreation)
    known[at + 3] = Math.max(known[at + 3] as number, cacheRead)
  }

  private addAnonymous(input: number, output: number, cacheCreation: number, cacheRead: number) {
    if (this.anonymousCount * FIELDS >= this.anonymous.length) {
      this.anonymous = grown(this.anonymous)
    }
    const at = this.anonymousCount++ * FIELDS
    this.anonymous[at] = input
    this.anonymous[at + 1] = output
    this.anonymous[at + 2] = cacheCreation
    this.anonymous[at + 3] = cacheRead
  }
}

/** A copy twice as long. */
function grown(numbers: Float64Array): Float64Array {
  const copy = new Float64Array(numbers.length * 2)
  copy.set(numbers)
  return copy
}
