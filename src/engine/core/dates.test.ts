import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { daysSince, utcDay } from './dates.ts'

describe('daysSince', () => {
  it('counts calendar days in UTC, whatever the time of day', () => {
    const now = new Date('2026-03-10T00:30:00Z')
    expect(daysSince('2026-03-09', now)).toBe(1)
    expect(daysSince('2026-03-09T23:59:59Z', now)).toBe(1)
    expect(daysSince('2026-03-10T00:00:00Z', now)).toBe(0)
    expect(daysSince('2026-03-12', now)).toBe(-2)
    expect(daysSince('not a date', now)).toBeNull()
  })

  it('agrees with comparing the two YYYY-MM-DD dates', () => {
    // Years 1970 to about 2100, where both sides are four-digit years.
    const instant = fc.integer({ min: 0, max: 4_102_444_800_000 })
    fc.assert(
      fc.property(instant, instant, (then, nowMs) => {
        const days =
          (Date.parse(utcDay(new Date(nowMs))) - Date.parse(utcDay(new Date(then)))) / 86_400_000
        expect(daysSince(new Date(then).toISOString(), new Date(nowMs))).toBe(days)
      }),
    )
  })
})
