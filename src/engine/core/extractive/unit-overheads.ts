/** What opening a unit costs the summarizer besides its sentences: a speaker prefix, a date header. */
import { countTokens } from '../tokens.ts'
import type { TextUnit } from './sentences.ts'
import { parseTimestamp } from './timestamps.ts'

/** What opening a unit costs besides its sentences: its speaker prefix and its date header. */
export interface UnitOverheads {
  dates: (string | undefined)[]
  prefixCost: number[]
  headerCost: number[]
}

/** The overheads of `units`, each distinct speaker and date counted once. */
export function unitOverheads(units: readonly TextUnit[]): UnitOverheads {
  // Units share a few speakers and dates: count each distinct string once.
  const counted = new Map<string, number>()
  const count = (text: string) => {
    let tokens = counted.get(text)
    if (tokens === undefined) {
      tokens = countTokens(text)
      counted.set(text, tokens)
    }
    return tokens
  }
  const dates = units.map((unit) => parseTimestamp(unit.timestamp).date)
  return {
    dates,
    prefixCost: units.map((unit) => (unit.speaker ? count(`${unit.speaker}:`) : 0) + 1),
    headerCost: dates.map((date) => (date ? count(`[${date}]`) + 1 : 0)),
  }
}
