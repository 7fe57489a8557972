/**
 * The one line the UserPromptSubmit hook adds to the agent's context (agentcontext `hook.ts`,
 * research/seed-systems.md 1.4): silent unless sleep is due or a ★★★ bookmark waits, because it
 * runs on every prompt and every line it prints costs context.
 */
import { levelFor, type ScoringPolicy } from '../../engine/core/scoring/scoring-policy.ts'
import type { SleepState } from './sleep-state.ts'

/** The reminder for `state`, or null to stay silent. */
export function promptReminder(input: {
  state: SleepState
  policy: ScoringPolicy
  now: Date
}): string | null {
  const { state, policy } = input
  const debt = state.debt
  const critical = state.bookmarks.filter((bookmark) => bookmark.salience === 3).length
  const due = debt >= policy.thresholds.drowsy
  if (state.sleep_started_at !== null) {
    // A second sleep agent would consolidate the same sessions twice (agentcontext 33119d2).
    return due || critical > 0
      ? '[somnus] Consolidation already in progress: do not dispatch another sleep agent.'
      : null
  }
  if (critical === 0 && inCooldown(state, policy, input.now)) return null
  const parts: string[] = []
  if (due) {
    parts.push(
      `sleep debt ${debt} (${levelFor(policy, debt)}): after the current task, offer to consolidate`,
    )
  }
  if (critical > 0) {
    parts.push(
      `${critical} critical (★★★) bookmark${critical === 1 ? '' : 's'} waiting for consolidation`,
    )
  }
  return parts.length === 0 ? null : `[somnus] ${capitalise(parts.join('; '))}.`
}

function inCooldown(state: SleepState, policy: ScoringPolicy, now: Date): boolean {
  if (policy.cooldownMinutes <= 0 || state.last_consolidated_at === null) return false
  if (state.debt >= policy.cooldownBypassDebt) return false
  const since = now.getTime() - Date.parse(state.last_consolidated_at)
  return since >= 0 && since < policy.cooldownMinutes * 60_000
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
