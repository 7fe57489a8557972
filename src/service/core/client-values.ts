/**
 * What a client may send that the database cannot store, found before it gets there: a NUL
 * character (PostgreSQL's text and jsonb refuse U+0000) or an unpaired UTF-16 surrogate (jsonb
 * refuses `\ud800`; it is not Unicode text) anywhere in a value, and instants outside the years 1
 * to 9999 (PostgreSQL has no year 0, and an ISO 8601 string has four digits). Each would otherwise
 * surface as the database's error: a 500 instead of the client's 400.
 */

/** The earliest and latest instants stored: 0001-01-01 and the end of 9999, UTC. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

/** What a date outside the range is told. */
export const INSTANT_RANGE_MESSAGE = 'must be a date between the years 0001 and 9999 (UTC)'

/** True when `text` parses to an instant in the years 1 to 9999, UTC. */
export function isStorableInstant(text: string): boolean {
  const time = Date.parse(text)
  return Number.isFinite(time) && time >= EARLIEST && time <= LATEST
}

/** A string no database column can hold, where it is and why. */
export interface UnstorableText {
  /** The dotted path a schema error names (`turns.3.text`); `''` for the value itself. */
  path: string
  /** What is wrong, to follow the field's name in a message. */
  problem: string
}

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why `text` cannot be stored, or null when it can. */
function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored'
  if (UNPAIRED_SURROGATE.test(text)) {
    return 'contains an unpaired surrogate (\\ud800-\\udfff alone), which is not Unicode text'
  }
  return null
}

/**
 * Deepest nesting of arrays and objects a client value may have. No field of the API nests
 * beyond a few levels; a body of 100,000 brackets would otherwise overflow the stack of every
 * walk over it (a 500).
 */
export const MAX_NESTING = 32

/** The first string (or object key) in `value` that cannot be stored, or null when all can. */
export function unstorableText(
  value: unknown,
  path: readonly (string | number)[] = [],
): UnstorableText | null {
  if (path.length > MAX_NESTING && value !== null && typeof value === 'object') {
    return {
      path: path.slice(0, 1).join('.'),
      problem: `nests deeper than ${MAX_NESTING} levels of arrays and objects`,
    }
  }
  if (typeof value === 'string') {
    const problem = textProblem(value)
    return problem === null ? null : { path: path.join('.'), problem }
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = unstorableText(value[index], [...path, index])
      if (found !== null) return found
    }
    return null
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = textProblem(key)
      if (problem !== null)
        return { path: [...path].join('.'), problem: `has a key that ${problem}` }
      const found = unstorableText(item, [...path, key])
      if (found !== null) return found
    }
  }
  return null
}
