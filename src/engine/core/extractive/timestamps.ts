/**
 * Reads the date and clock time out of a unit's timestamp, whatever its shape: ISO 8601
 * (`2026-02-12T09:32:00Z`) or prose like LoCoMo's `1:56 pm on 8 May, 2023`. Taken as written,
 * with no time-zone conversion, so the same string always gives the same answer.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)'
const ISO = /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/
const DAY_MONTH_YEAR = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`,
  'i',
)
const MONTH_DAY_YEAR = new RegExp(
  `\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`,
  'i',
)
const CLOCK = /\b(\d{1,2}):(\d{2})(?::\d{2})?\s*([ap]\.?m\.?)?/i

/** The calendar date (`8 May 2023` or `2026-02-12`) and clock time (`HH:MM`, 24 h) found. */
export interface TimestampParts {
  date?: string
  time?: string
}

/** Splits a timestamp string into its date and time, each only when present. */
export function parseTimestamp(timestamp: string | undefined): TimestampParts {
  if (!timestamp) return {}
  const parts: TimestampParts = {}
  const iso = ISO.exec(timestamp)
  if (iso) {
    parts.date = `${iso[1]}-${iso[2]}-${iso[3]}`
    if (iso[4] !== undefined && iso[5] !== undefined) parts.time = `${iso[4]}:${iso[5]}`
    return parts
  }
  const dayFirst = DAY_MONTH_YEAR.exec(timestamp)
  const monthFirst = dayFirst ? null : MONTH_DAY_YEAR.exec(timestamp)
  if (dayFirst) parts.date = `${Number(dayFirst[1])} ${monthName(dayFirst[2])} ${dayFirst[3]}`
  else if (monthFirst)
    parts.date = `${Number(monthFirst[2])} ${monthName(monthFirst[1])} ${monthFirst[3]}`
  const clock = CLOCK.exec(timestamp)
  if (clock) {
    let hours = Number(clock[1])
    const meridiem = clock[3]?.toLowerCase().replace(/\./g, '')
    if (meridiem === 'pm' && hours < 12) hours += 12
    if (meridiem === 'am' && hours === 12) hours = 0
    if (hours < 24) parts.time = `${String(hours).padStart(2, '0')}:${clock[2]}`
  }
  return parts
}

function monthName(text: string | undefined): string {
  const prefix = (text ?? '').toLowerCase().slice(0, 3)
  const full = MONTHS.find((month) => month.startsWith(prefix)) ?? prefix
  return full.charAt(0).toUpperCase() + full.slice(1)
}
