/**
 * The building blocks of `sleep-state-check.ts`: plain-data tests, field checks with zod's
 * defaults, copies of unknown JSON, and the loose-object rule (unknown keys kept after the known).
 */
import { isCount } from '../../core/ledger-counts.ts'

/** Returned by a check that cannot vouch for its input. */
export const UNSURE: unique symbol = Symbol('unsure')
/** The type of UNSURE. */
export type Unsure = typeof UNSURE
/** A plain object. */
export type Plain = Record<string, unknown>

/** Checks one record: the record as the schema would return it, or UNSURE. */
export type RecordCheck<T> = (value: unknown) => T | Unsure

/** A plain object (from JSON or a literal): not an array, a Date, a class instance. */
export function isPlain(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/** A finite number, as z.number() accepts. */
export const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/** `z._default(z.nullable(z.string()), null)`. */
export function nullableString(value: unknown): string | null | Unsure {
  if (value === undefined || value === null) return null
  return typeof value === 'string' ? value : UNSURE
}

/** `z._default(z.nullable(z.number()), null)`. */
export function nullableNumber(value: unknown): number | null | Unsure {
  if (value === undefined || value === null) return null
  return isNumber(value) ? value : UNSURE
}

/** `z._default(z.number(), fallback)`. */
export function numberOr(value: unknown, fallback: number): number | Unsure {
  if (value === undefined) return fallback
  return isNumber(value) ? value : UNSURE
}

/** A ledger count or score as the schema repairs it: valid, else null (missing: null too). */
export function countOrNull(
  value: unknown,
  valid: (value: unknown) => value is number,
): number | null {
  return valid(value) ? value : null
}

/** A ledger count with a fallback, as the schema repairs it: valid, else `fallback`. */
export function countOr(value: unknown, fallback: number): number {
  return isCount(value) ? value : fallback
}

/** A string or null, exactly (not undefined): a field the schema would return as it is. */
export const isStringOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === 'string'

/** A finite number or null, exactly (not undefined). */
export const isNumberOrNull = (value: unknown): value is number | null =>
  value === null || isNumber(value)

/** An array of strings. */
export function isStringArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false
  for (let index = 0; index < value.length; index += 1) {
    if (typeof value[index] !== 'string') return false
  }
  return true
}

/** True when `value`'s own keys are exactly `known`, in that order (every record Somnus writes). */
export function hasExactly(value: Plain, known: readonly string[]): boolean {
  const keys = Object.keys(value)
  if (keys.length !== known.length) return false
  for (let index = 0; index < keys.length; index += 1) {
    if (keys[index] !== known[index]) return false
  }
  return true
}

/** `z._default(z.array(z.string()), [])`, copied. */
export function strings(value: unknown): string[] | Unsure {
  if (value === undefined) return []
  return isStringArray(value) ? value.slice() : UNSURE
}

/** A copy of JSON data; UNSURE for anything JSON would not round-trip (undefined, Date, NaN). */
export function jsonCopy(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : UNSURE
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length)
    for (let index = 0; index < value.length; index += 1) {
      const item = jsonCopy(value[index])
      if (item === UNSURE) return UNSURE
      copy[index] = item
    }
    return copy
  }
  if (!isPlain(value)) return UNSURE
  const copy: Plain = {}
  for (const key of Object.keys(value)) {
    const item = key === '__proto__' ? UNSURE : jsonCopy(value[key])
    if (item === UNSURE) return UNSURE
    copy[key] = item
  }
  return copy
}

/**
 * `out` (the known keys, checked, in schema order) followed by the keys of `value` that the
 * schema does not know, as `z.looseObject` keeps them. A record whose keys are exactly the known
 * ones, in order (every file Somnus wrote), needs no second look.
 */
export function withUnknownKeys<T extends Plain>(
  value: Plain,
  out: T,
  known: readonly string[],
): T | Unsure {
  if (hasExactly(value, known)) return out
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue
    const copy = key === '__proto__' ? UNSURE : jsonCopy(value[key])
    if (copy === UNSURE) return UNSURE
    ;(out as Plain)[key] = copy
  }
  return out
}

/**
 * Every item of an array of records, checked; `[]` when missing. The input array itself when
 * every item came back as it was. Items of `trusted` (the same array as checked before) are taken
 * as they are: a change usually keeps most of them, at the same index or one further along when
 * it put a new record first.
 */
export function recordsOf<T>(
  check: RecordCheck<T>,
  value: unknown,
  trusted: unknown,
): T[] | Unsure {
  if (value === undefined) return []
  if (!Array.isArray(value)) return UNSURE
  if (value === trusted) return value
  const before = Array.isArray(trusted) ? trusted : undefined
  let out: T[] | undefined
  for (let index = 0; index < value.length; index += 1) {
    const item = value[index]
    const checked =
      before !== undefined && (item === before[index] || item === before[index - 1])
        ? (item as T)
        : check(item)
    if (checked === UNSURE) return UNSURE
    // The array itself is shared until an item differs from the input (a default filled in).
    if (out === undefined && checked !== item) out = value.slice(0, index)
    if (out !== undefined) out[index] = checked
  }
  return out ?? value
}
