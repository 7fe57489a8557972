/** Conversions between what `pg` / PGlite return and the ports' plain values. */
import { SomnusError } from '../../../engine/core/errors.ts'
import { isStorableInstant } from '../../core/client-values.ts'
import type { Page } from '../../ports/service-stores.ts'

/** An ISO 8601 string from a timestamptz value (a Date from both drivers). */
export function iso(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString()
}

/** `iso`, keeping null. */
export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value)
}

/** A number from a bigint or numeric column (`pg` returns those as strings). */
export function num(value: string | number): number {
  return typeof value === 'number' ? value : Number(value)
}

/** A jsonb value that a driver may hand back as text. */
export function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T
}

/** An opaque cursor for keyset paging over (created_at, id). */
export function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url')
}

/** The instant of a cursor exactly as `encodeCursor` wrote it: ISO 8601 in UTC, milliseconds. */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * The (created_at, id) a cursor stands for. Parsed strictly, as only `encodeCursor` writes them:
 * two strings, an instant in the form it writes that reads back the same, and an id without
 * control characters; anything else (a crafted `["1","x"]`) is bad input naming `cursor`, never
 * a value the database would choke on.
 */
export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const text = Buffer.from(cursor, 'base64url').toString('utf8')
    const value = JSON.parse(text) as unknown
    if (
      Buffer.from(text, 'utf8').toString('base64url') === cursor &&
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      CURSOR_INSTANT.test(value[0]) &&
      isStorableInstant(value[0]) &&
      new Date(value[0]).toISOString() === value[0] &&
      value[1].length > 0 &&
      value[1].length <= 200 &&
      // biome-ignore lint/suspicious/noControlCharactersInRegex: an id never holds one
      !/[\u0000-\u001f\u007f]/.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] }
    }
  } catch {
    // fall through to the error below
  }
  throw new SomnusError(
    'INVALID_INPUT',
    'cursor: not one this server gave out; pass the next_cursor of the previous page, or none for the first page.',
    { details: { field: 'cursor' } },
  )
}

/**
 * Text one page of a list may carry, about: a page of 500 handoffs of 1 MB each would be a
 * 500 MB answer, seconds of JSON on the thread that answers every request (and past the longest
 * string V8 can build). A page holds at least one item.
 */
export const PAGE_BYTES = 4 * 1024 * 1024

/**
 * How many of the first `limit` rows (sized in bytes, in page order) fit in `pageBytes`, at least
 * one: the rows a list reads in full.
 */
export function rowsThatFit(
  bytes: readonly number[],
  limit: number,
  pageBytes = PAGE_BYTES,
): number {
  let total = 0
  let count = 0
  for (const size of bytes.slice(0, limit)) {
    total += size
    if (count > 0 && total > pageBytes) break
    count += 1
  }
  return count
}

/** A page of the rows read in full, `more` when rows past them matched. */
export function sizedPage<T>(
  items: T[],
  more: boolean,
  keyOf: (item: T) => { createdAt: string; id: string },
): Page<T> {
  const last = items.at(-1)
  const key = last === undefined ? undefined : keyOf(last)
  return { items, next_cursor: more && key ? encodeCursor(key.createdAt, key.id) : null }
}

/** True for PostgreSQL's unique-violation error (both drivers report SQLSTATE 23505 as `code`). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505'
}

/** True for a foreign-key violation (SQLSTATE 23503): e.g. a tenant that does not exist. */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503'
}
