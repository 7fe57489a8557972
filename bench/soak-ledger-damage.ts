/**
 * Ledger damage as an outside observer sees it: the ledger or history does not parse, the debt is
 * not the sum of the session scores, or a count is negative, fractional or not finite.
 */
import { readHistoryFile, readLedgerFile } from './soak-verify.ts'

const isCount = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e9

/** The problems found in the brain at `root` (none: an empty list). */
export function ledgerDamage(root: string): string[] {
  const problems: string[] = []
  const history = readHistoryFile(root)
  if (typeof history === 'string') problems.push(history)
  const ledger = readLedgerFile(root) as string | Record<string, unknown>
  if (typeof ledger === 'string') return [...problems, ledger]
  const sessions = Array.isArray(ledger.sessions)
    ? (ledger.sessions as Record<string, unknown>[])
    : []
  if (!Array.isArray(ledger.sessions)) problems.push('sessions is not a list')
  for (const key of ['debt', 'sessions_since_last_sleep']) {
    if (!isCount(ledger[key])) problems.push(`${key} is ${JSON.stringify(ledger[key])}`)
  }
  let sum = 0
  for (const session of sessions) {
    for (const key of ['score', 'change_count', 'tool_count']) {
      const value = session?.[key]
      if (value !== null && value !== undefined && !isCount(value)) {
        problems.push(`session ${String(session?.session_id)} ${key} is ${JSON.stringify(value)}`)
      }
    }
    if (typeof session?.score === 'number') sum += session.score
  }
  if (ledger.debt !== sum) problems.push(`debt ${String(ledger.debt)} ≠ sum of scores ${sum}`)
  return problems
}
