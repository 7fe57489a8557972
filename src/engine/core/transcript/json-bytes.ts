/**
 * Byte-level JSON scanning: find where a value ends without building it, so the transcript
 * analyzer only decodes the few strings it needs. Works on any Uint8Array; a Node Buffer makes
 * `indexOf` a native memchr, which is where the speed comes from.
 */

/** Byte values the scanner looks at. */
export const BYTE = {
  quote: 34,
  backslash: 92,
  comma: 44,
  colon: 58,
  openBrace: 123,
  closeBrace: 125,
  openBracket: 91,
  closeBracket: 93,
  newline: 10,
  space: 32,
} as const

const textDecoder = new TextDecoder()

/** The bytes of an ASCII name, for comparing keys without decoding them. */
export function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length)
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index)
  return bytes
}

/** True when the `length` bytes at `at` are the first `length` bytes of `other`. */
export function bytesMatch(
  bytes: Uint8Array,
  at: number,
  other: Uint8Array,
  length: number,
): boolean {
  for (let index = 0; index < length; index++) {
    if (bytes[at + index] !== other[index]) return false
  }
  return true
}

/**
 * True when `needle` occurs inside `bytes[start, end)`. The native search looks for the needle's
 * byte at `anchor` (pick its rarest, e.g. the x of _agent_context) and the rest is compared here.
 */
export function spanIncludes(
  bytes: Uint8Array,
  start: number,
  end: number,
  needle: Uint8Array,
  anchor = 0,
): boolean {
  const anchorByte = needle[anchor] as number
  let at = start + anchor
  const last = end - needle.length + anchor
  // The native search must stop at the span's end: over the whole buffer, a span without the
  // anchor byte read the rest of the line, once per span (a line of 20,000 tool calls: 13 s).
  const window = bytes.subarray(0, Math.max(0, last + 1))
  while (at <= last) {
    const found = window.indexOf(anchorByte, at)
    if (found === -1 || found > last) return false
    const first = found - anchor
    let index = 0
    while (index < needle.length && bytes[first + index] === needle[index]) index++
    if (index === needle.length) return true
    at = found + 1
  }
  return false
}

/** Index of the quote that closes the string opened at `open`, or -1 if it does not close before `end`. */
export function stringEnd(bytes: Uint8Array, open: number, end: number): number {
  let at = open + 1
  for (;;) {
    const quote = bytes.indexOf(BYTE.quote, at)
    if (quote === -1 || quote >= end) return -1
    if (bytes[quote - 1] !== BYTE.backslash) return quote
    // An escaped quote only when the backslashes before it are odd in number.
    let back = quote - 1
    while (bytes[back] === BYTE.backslash) back--
    if (((quote - 1 - back) & 1) === 0) return quote
    at = quote + 1
  }
}

/** The first index at or after `at` that is not JSON whitespace. */
export function skipWhitespace(bytes: Uint8Array, at: number, end: number): number {
  while (at < end) {
    const byte = bytes[at] as number
    if (byte !== 32 && byte !== 10 && byte !== 13 && byte !== 9) return at
    at++
  }
  return at
}

/**
 * Index just past the JSON value starting at `at`, or -1 when it is cut off. Nested values are
 * skipped by hopping from string to string, so long strings cost one native search each. It checks
 * balance, not the whole grammar: the caller trusts a writer that emits valid JSON.
 */
export function skipValue(bytes: Uint8Array, at: number, end: number): number {
  const first = bytes[at]
  if (first === BYTE.quote) {
    const close = stringEnd(bytes, at, end)
    return close === -1 ? -1 : close + 1
  }
  if (first === BYTE.openBrace || first === BYTE.openBracket) return skipNested(bytes, at, end)
  return skipScalar(bytes, at, end)
}

function skipNested(bytes: Uint8Array, at: number, end: number): number {
  let depth = 0
  let index = at
  while (index < end) {
    const byte = bytes[index]
    if (byte === BYTE.quote) {
      const close = stringEnd(bytes, index, end)
      if (close === -1) return -1
      index = close + 1
      continue
    }
    if (byte === BYTE.openBrace || byte === BYTE.openBracket) depth++
    else if (byte === BYTE.closeBrace || byte === BYTE.closeBracket) {
      depth--
      if (depth === 0) return index + 1
    }
    index++
  }
  return -1
}

function skipScalar(bytes: Uint8Array, at: number, end: number): number {
  let index = at
  while (index < end) {
    const byte = bytes[index]
    if (byte === BYTE.comma || byte === BYTE.closeBrace || byte === BYTE.closeBracket) break
    if (byte === 32 || byte === 10 || byte === 13 || byte === 9) break
    index++
  }
  return index === at ? -1 : index
}

/** True when the value `bytes[at, valueEnd)` is the literal `true`. */
export function isLiteralTrue(bytes: Uint8Array, at: number, valueEnd: number): boolean {
  return (
    valueEnd - at === 4 &&
    bytes[at] === 116 &&
    bytes[at + 1] === 114 &&
    bytes[at + 2] === 117 &&
    bytes[at + 3] === 101
  )
}

/** True when `bytes[start, end)` holds a backslash (an escape). */
export function hasBackslash(bytes: Uint8Array, start: number, end: number): boolean {
  for (let index = start; index < end; index++) if (bytes[index] === BYTE.backslash) return true
  return false
}

/**
 * The number at `at`, or NaN when the value there is not a JSON number. Plain integers are read
 * digit by digit; anything with a sign, fraction or exponent goes through `Number`, as JSON.parse would.
 */
export function readNumber(bytes: Uint8Array, at: number, valueEnd: number): number {
  let value = 0
  let index = at
  while (index < valueEnd) {
    const digit = (bytes[index] as number) - 48
    if (digit < 0 || digit > 9) break
    value = value * 10 + digit
    index++
  }
  // Up to 15 digits the running value is exact; longer integers are left to Number.
  if (index === valueEnd && index > at && index - at <= 15) {
    // JSON forbids leading zeros; "007" is not a number there.
    if (bytes[at] === 48 && valueEnd - at > 1) return Number.NaN
    return value
  }
  const text = decodePlain(bytes, at, valueEnd)
  return /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN
}

/** The JSON string whose quotes are at `open` and `close`, decoded exactly as JSON.parse would. */
export function decodeString(bytes: Uint8Array, open: number, close: number): string {
  const body = view(bytes, open + 1, close)
  if (body.indexOf(BYTE.backslash) === -1) return textDecoder.decode(body)
  return JSON.parse(textDecoder.decode(view(bytes, open, close + 1))) as string
}

/** UTF-8 text of `bytes[start, end)`. */
export function decodePlain(bytes: Uint8Array, start: number, end: number): string {
  return textDecoder.decode(view(bytes, start, end))
}

/**
 * `bytes[start, end)` as a plain Uint8Array sharing its memory: cheaper to make than a Node
 * Buffer's subarray, and decoded the same.
 */
function view(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset + start, end - start)
}
