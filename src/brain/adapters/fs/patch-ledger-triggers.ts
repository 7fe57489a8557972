/**
 * SessionStart's one write, the fire counts of the triggers it showed, without re-serialising the
 * whole ledger: on a ledger of 1,000 sessions (~600 KB), `JSON.stringify(state, null, 2)` and
 * encoding it were ~3 ms of a ~45 ms hook. The file as read is kept byte for byte, and only the
 * text of its top-level `triggers` array is replaced. When only digits change, at the same
 * places (a count going from 1 to 2), those few bytes can even be overwritten in place.
 * Only done when the file is laid out as this store writes it (JSON.stringify with two spaces),
 * checked as follows; anything else gets an ordinary full write.
 * - The top-level keys sit on lines indented by exactly two spaces, and a JSON string cannot hold
 *   a raw line break, so `\n  "triggers": ` occurring once marks the key itself.
 * - The array ends at the first `\n  ]` after it (its items are indented deeper), and that text
 *   must parse to exactly the triggers the state was read with.
 */
import type { SleepState } from '../../core/sleep-state.ts'

const KEY = '\n  "triggers": '
const ARRAY_END = '\n  ]'

/** The top-level `triggers` array of a ledger file: where it is, its text, and its new text. */
export interface TriggersPatch {
  offset: number
  before: Buffer
  after: Buffer
}

/**
 * The patch that turns `bytes` (the file `base` was parsed from) into the ledger of `next`, when
 * `next` differs from `base` in `triggers` alone; null when the change touched anything else or
 * the file is not laid out as expected. Applied to a file this store wrote, the result equals
 * `JSON.stringify(next, null, 2)` plus a newline.
 */
export function patchLedgerTriggers(
  bytes: Buffer,
  base: SleepState,
  next: SleepState,
): TriggersPatch | null {
  if (!onlyTriggersDiffer(base, next)) return null
  const keyAt = bytes.indexOf(KEY)
  if (keyAt === -1 || bytes.indexOf(KEY, keyAt + 1) !== -1) return null
  const offset = keyAt + KEY.length
  const end = bytes.indexOf(ARRAY_END, offset)
  if (end === -1 || bytes[offset] !== 0x5b /* [ */) return null
  const before = bytes.subarray(offset, end + ARRAY_END.length)
  let parsed: unknown
  try {
    parsed = JSON.parse(before.toString('utf8'))
  } catch {
    return null
  }
  if (JSON.stringify(parsed) !== JSON.stringify(base.triggers)) return null
  // Nested one level in the file: every line of the array after the first moves two spaces in.
  const after = Buffer.from(JSON.stringify(next.triggers, null, 2).replaceAll('\n', '\n  '))
  return { offset, before, after }
}

/** The whole file with the patch applied. */
export function patchedFile(bytes: Buffer, patch: TriggersPatch): Buffer {
  const rest = bytes.subarray(patch.offset + patch.before.length)
  return Buffer.concat([bytes.subarray(0, patch.offset), patch.after, rest])
}

/**
 * The one byte range to write over the file when the patch changes digits only, at the same
 * places: written in place, a torn or half-done write still leaves digits where digits were, so
 * the file stays valid JSON without a temporary file, rename or fsync. Null otherwise.
 */
export function digitsInPlace(patch: TriggersPatch): { offset: number; bytes: Buffer } | null {
  const { before, after } = patch
  if (before.length !== after.length) return null
  let first = -1
  let last = -1
  for (let index = 0; index < after.length; index += 1) {
    if (before[index] === after[index]) continue
    if (!isDigit(before[index]) || !isDigit(after[index])) return null
    if (first === -1) first = index
    last = index
  }
  if (first === -1) return null
  return { offset: patch.offset + first, bytes: after.subarray(first, last + 1) }
}

const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39

/** Same keys in the same order, every value but `triggers` the very same object. */
function onlyTriggersDiffer(base: SleepState, next: SleepState): boolean {
  const keys = Object.keys(base)
  const nextKeys = Object.keys(next)
  if (keys.length !== nextKeys.length) return false
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as keyof SleepState
    if (key !== nextKeys[index]) return false
    if (key !== 'triggers' && base[key] !== next[key]) return false
  }
  return true
}
