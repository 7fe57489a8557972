/** Use case: the consolidation directive for the brain's current ledger (hooks, snapshot). */
import { consolidationDirective } from '../core/directive.ts'
import type { Brain } from './brain.ts'
import { policyOf } from './brain-scoring-policy.ts'

/** The directive text, or null when the agent need not be told anything. */
export async function getConsolidationDirective(brain: Brain): Promise<string | null> {
  return consolidationDirective({
    state: await brain.state.read(),
    policy: policyOf(brain),
    now: brain.clock.now(),
    rhythmSessions: brain.config.rhythm_sessions,
  })
}
