/**
 * `JSON.stringify(a) === JSON.stringify(b)` without building the two texts: the ledger store asks
 * it before every write, on a state of up to ~600 KB whose parts are mostly shared, where the two
 * stringify calls cost ~4 ms. Plain data is compared in place, shared parts at once; anything
 * JSON.stringify treats specially (toJSON, undefined, NaN, class instances) is compared as text.
 */

/** True when `a` and `b` have the same JSON text (key order included). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (isSimple(a) && isSimple(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false
    for (let index = 0; index < a.length; index += 1) {
      if (!sameJson(asItem(a[index]), asItem(b[index]))) return false
    }
    return true
  }
  if (isPlain(a) && isPlain(b)) {
    const keys = Object.keys(a)
    const otherKeys = Object.keys(b)
    if (keys.length !== otherKeys.length) return asText(a, b)
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string
      if (key !== otherKeys[index]) return asText(a, b)
      if (!sameJson(a[key], b[key])) return false
    }
    return true
  }
  return asText(a, b)
}

/** Strings, booleans, null and finite numbers: values whose text differs when they differ. */
function isSimple(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return false
  // A key holding undefined (or a function) is left out of the text: compare those as text.
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key]
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') return false
  }
  return true
}

/** What JSON.stringify writes for an array item: undefined and functions become null. */
function asItem(value: unknown): unknown {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
    ? null
    : value
}

function asText(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
