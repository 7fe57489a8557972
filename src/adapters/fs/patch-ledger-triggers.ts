/**
 * SessionStart's one write, the fire counts of the triggers it showed, without re-serialising the
 * whole ledger: on a ledger of 1,000 sessions (~600 KB), `JSON.stringify(state, null, 2)` and
 * encoding it were ~3 ms of a ~45 ms hook. The file as read is kept byte for byte, and only the
 * text of its top-level `triggers` array is replaced.
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

/**
 * The ledger's new bytes when `next` differs from `base` (the state parsed from `bytes`) in
 * `triggers` alone, equal to `JSON.stringify(next, null, 2)` plus a newline; null when the change
 * touched anything else or the file is not laid out as expected.
 */
export function patchLedgerTriggers(
  bytes: Buffer,
  base: SleepState,
  next: SleepState,
): Buffer | null {
  if (!onlyTriggersDiffer(base, next)) return null
  const keyAt = bytes.indexOf(KEY)
  if (keyAt === -1 || bytes.indexOf(KEY, keyAt + 1) !== -1) return null
  const start = keyAt + KEY.length
  const end = bytes.indexOf(ARRAY_END, start)
  if (end === -1 || bytes[start] !== 0x5b /* [ */) return null
  const stop = end + ARRAY_END.length
  let before: unknown
  try {
    before = JSON.parse(bytes.toString('utf8', start, stop))
  } catch {
    return null
  }
  if (JSON.stringify(before) !== JSON.stringify(base.triggers)) return null
  // Nested one level in the file: every line of the array after the first moves two spaces in.
  const text = JSON.stringify(next.triggers, null, 2).replaceAll('\n', '\n  ')
  return Buffer.concat([bytes.subarray(0, start), Buffer.from(text), bytes.subarray(stop)])
}

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
