/** The UserPromptSubmit hook's use case: a one-line sleep reminder, or nothing. Read-only. */
import { promptReminder as reminderLine } from '../core/prompt-reminder.ts'
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import type { Brain } from './brain.ts'

/** The reminder line for the brain's current ledger, or null to stay silent. Takes no lock. */
export async function promptReminder(brain: Brain): Promise<string | null> {
  return reminderLine({
    state: await brain.state.read(),
    policy: scoringPolicyFor(brain.config.scoring),
    now: brain.clock.now(),
  })
}
