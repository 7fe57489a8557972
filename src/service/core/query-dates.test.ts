import { describe, expect, it } from 'vitest'
import { dateBoosts, isOnDate, queryDates } from './query-dates.ts'

describe('queryDates', () => {
  it('reads each date a question names once, as precise as it was said', () => {
    expect(queryDates('What movie did Joanna watch on 1 May, 2022?')).toEqual([
      { year: 2022, month: 4, day: 1 },
    ])
    expect(queryDates('Who did Maria have dinner with on May 3, 2023?')).toEqual([
      { year: 2023, month: 4, day: 3 },
    ])
    expect(queryDates('Where did Joanna travel to in July 2022?')).toEqual([
      { year: 2022, month: 6, day: null },
    ])
    expect(queryDates('Where was John between August 11 and August 15 2023?')).toEqual([
      { year: 2023, month: 7, day: 15 },
      { year: null, month: 7, day: 11 },
    ])
    expect(queryDates('How many times has Melanie gone to the beach in 2023?')).toEqual([
      { year: 2023, month: null, day: null },
    ])
  })

  it('takes "May" for a month only where it is one', () => {
    expect(queryDates('Which outdoor spot did Joanna visit in May?')).toEqual([
      { year: null, month: 4, day: null },
    ])
    expect(queryDates('May I ask what Nate cooked?')).toEqual([])
    expect(queryDates('What did the build log say?')).toEqual([])
  })
})

describe('isOnDate', () => {
  it('holds for a session on the date or in the week after it, not before', () => {
    const july2022 = { year: 2022, month: 6, day: null }
    expect(isOnDate(july2022, '2022-07-10T13:00:00.000Z')).toBe(true)
    expect(isOnDate(july2022, '2022-08-05T13:00:00.000Z')).toBe(true)
    expect(isOnDate(july2022, '2022-08-20T13:00:00.000Z')).toBe(false)
    expect(isOnDate(july2022, '2022-06-30T13:00:00.000Z')).toBe(false)
    expect(isOnDate(july2022, '2023-07-10T13:00:00.000Z')).toBe(false)
  })

  it("takes a date without a year in the session's own year", () => {
    const december = { year: null, month: 11, day: null }
    expect(isOnDate(december, '2023-12-24T10:00:00.000Z')).toBe(true)
    expect(isOnDate(december, '2024-01-03T10:00:00.000Z')).toBe(true)
    expect(isOnDate(december, '2024-02-03T10:00:00.000Z')).toBe(false)
    expect(isOnDate(december, 'not a date')).toBe(false)
  })
})

describe('dateBoosts', () => {
  it('weighs up the units of sessions on the date, more when such sessions are rare', () => {
    const spans = queryDates('in July 2022')
    const few = dateBoosts(spans, ['2022-07-02', '2022-03-01', '2022-04-01', '2022-05-01'])
    const many = dateBoosts(spans, ['2022-07-02', '2022-07-09', '2022-07-16', '2022-05-01'])
    expect(few?.[0]).toBeGreaterThan(many?.[0] ?? 0)
    expect(few?.slice(1)).toEqual([1, 1, 1])
    expect(many?.[3]).toBe(1)
    expect(dateBoosts([], ['2022-07-02'])).toBeNull()
  })
})
