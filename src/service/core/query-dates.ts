/**
 * The calendar dates a search question names ("in May 2022", "on 1 May, 2022", "August 11",
 * "in 2023") and whether a handoff's date falls on one of them. A handoff is dated by its session,
 * and a question about "what Joanna did in July 2022" is about the sessions of July 2022: the
 * session's date is a word of each of its units that no text says.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)'
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?'
const YEAR = '((?:19|20)\\d\\d)'
/** Most specific first: a mention is taken once, by the first form that reads it. */
const FORMS: { pattern: RegExp; read: (match: RegExpExecArray) => DateSpan }[] = [
  {
    pattern: new RegExp(`\\b${DAY}\\s+${MONTH}\\.?,?\\s+${YEAR}\\b`, 'g'),
    read: (match) => ({ year: Number(match[3]), month: month(match[2]), day: Number(match[1]) }),
  },
  {
    pattern: new RegExp(`\\b${MONTH}\\.?\\s+${DAY},?\\s+${YEAR}\\b`, 'g'),
    read: (match) => ({ year: Number(match[3]), month: month(match[1]), day: Number(match[2]) }),
  },
  {
    pattern: new RegExp(`\\b${MONTH}\\.?,?\\s+${YEAR}\\b`, 'g'),
    read: (match) => ({ year: Number(match[2]), month: month(match[1]), day: null }),
  },
  {
    pattern: new RegExp(`\\b${MONTH}\\.?\\s+${DAY}\\b`, 'g'),
    read: (match) => ({ year: null, month: month(match[1]), day: Number(match[2]) }),
  },
  {
    pattern: new RegExp(`\\b${DAY}\\s+${MONTH}\\b`, 'g'),
    read: (match) => ({ year: null, month: month(match[2]), day: Number(match[1]) }),
  },
  {
    // A month alone; "May" alone only after a word that makes it a date ("in May", not "May I").
    pattern: new RegExp(
      `\\b(?:in|of|during|since|by|until|early|late|mid|last|this|next)\\s+${MONTH}\\b|\\b(?!May\\b)${MONTH}\\b`,
      'g',
    ),
    read: (match) => ({ year: null, month: month(match[1] ?? match[2]), day: null }),
  },
  {
    pattern: new RegExp(`\\b${YEAR}\\b`, 'g'),
    read: (match) => ({ year: Number(match[1]), month: null, day: null }),
  },
]

/** Days after a named date whose sessions still tell of it ("last Friday", "last week"). */
export const RECOUNTED_DAYS = 7

const DAY_MS = 86_400_000

/** A date a question names, as precise as it was said (a year, a month, a day). */
export interface DateSpan {
  /** Null when the question leaves it out ("in May"): the session's own year. */
  year: number | null
  /** 0-11; null for a year alone. */
  month: number | null
  day: number | null
}

function month(name: string | undefined): number {
  return MONTHS.indexOf((name ?? '').slice(0, 3).toLowerCase())
}

/** The dates `text` names, each once, most specific form first. */
export function queryDates(text: string): DateSpan[] {
  const spans: DateSpan[] = []
  let rest = text
  for (const form of FORMS) {
    rest = rest.replace(form.pattern, (...groups: unknown[]) => {
      const span = form.read(groups.slice(0, -2) as unknown as RegExpExecArray)
      if (span.month !== -1 && (span.day === null || (span.day >= 1 && span.day <= 31))) {
        spans.push(span)
      }
      return ' '
    })
  }
  return spans
}

/**
 * Whether a session at `date` (ISO 8601) falls within `span` or the RECOUNTED_DAYS after it.
 * A span without a year is taken in the session's own year (or the one before, for a December
 * recounted in January).
 */
export function isOnDate(span: DateSpan, date: string): boolean {
  const time = Date.parse(date)
  if (Number.isNaN(time)) return false
  const sessionYear = new Date(time).getUTCFullYear()
  const years = span.year !== null ? [span.year] : [sessionYear, sessionYear - 1]
  return years.some((year) => {
    const start = Date.UTC(year, span.month ?? 0, span.day ?? 1)
    const end =
      span.day !== null
        ? start + DAY_MS
        : span.month !== null
          ? Date.UTC(year, span.month + 1, 1)
          : Date.UTC(year + 1, 0, 1)
    return time >= start && time < end + RECOUNTED_DAYS * DAY_MS
  })
}

/**
 * What each unit's score is multiplied by for the dates the question names: 1 + the IDF of "on
 * that date" for a unit of a session on one of them (the rarer such sessions, the more the date
 * says, as a rare word does), 1 for the others; null when the question names no date.
 */
export function dateBoosts(
  spans: readonly DateSpan[],
  unitDates: readonly string[],
): number[] | null {
  if (spans.length === 0 || unitDates.length === 0) return null
  const onDate = unitDates.map((date) => spans.some((span) => isOnDate(span, date)))
  const matching = onDate.filter(Boolean).length
  const total = unitDates.length
  const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5))
  return onDate.map((on) => (on ? 1 + idf : 1))
}
