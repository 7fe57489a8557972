/** Calendar days in UTC, the unit of every date a brain file stores (agentcontext's `today()`). */

const DAY_MS = 24 * 60 * 60 * 1000

/** `YYYY-MM-DD` of `instant` in UTC. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10)
}

/**
 * Whole days from `day` (a `YYYY-MM-DD` or ISO string) to `now`, or null when `day` is not a date.
 * Negative when `day` is in the future.
 */
export function daysSince(day: string, now: Date): number | null {
  const parsed = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00Z` : day)
  if (Number.isNaN(parsed)) return null
  return Math.round((startOfUtcDay(now.getTime()) - startOfUtcDay(parsed)) / DAY_MS)
}

/** The UTC midnight at or before `ms`: a UTC day is exactly DAY_MS long (no leap seconds). */
const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS
