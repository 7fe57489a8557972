/**
 * What counts as a count in the ledger, shared by the zod schema (sleep-state.ts) and the hook
 * path's one-pass checker, which must not load zod: both repair the same values the same way.
 */

/** Ten times the highest score any scoring policy gives one session: above it is not a score. */
export const MAX_SESSION_SCORE = 100

/** A count as the ledger may hold it: a whole number from 0 (and a safe integer). */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/**
 * Above this a ledger's debt or its count of sessions since the last sleep is no total of real
 * sessions (a million sessions at the top score): a planted `debt: 9e15` is repaired, not shown.
 */
export const MAX_LEDGER_TOTAL = 1_000_000 * MAX_SESSION_SCORE

/** A ledger-wide total (the debt, the sessions since the last sleep): a count up to the ceiling. */
export function isLedgerTotal(value: unknown): value is number {
  return isCount(value) && value <= MAX_LEDGER_TOTAL
}

/** A session score: a count no higher than MAX_SESSION_SCORE. */
export function isScore(value: unknown): value is number {
  return isCount(value) && value <= MAX_SESSION_SCORE
}

/** The debt a ledger's sessions add up to: its repair when the stored one is nonsense. */
export function repairedDebt(sessions: readonly { score: number | null }[]): number {
  let debt = 0
  for (const session of sessions) debt += session.score ?? 0
  return debt
}
