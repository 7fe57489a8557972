/** Use case: record debt for work no transcript shows (`sleep add <score> <description>`). */

import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { levelFor, type SleepLevel } from '../../engine/core/scoring/scoring-policy.ts'
import { addManualEntry } from '../core/ledger.ts'
import type { SessionRecord } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'
import { policyOf } from './brain-scoring-policy.ts'

/** What `addSleepDebt` recorded and where the debt now stands. */
export interface AddedSleepDebt {
  session: SessionRecord
  debt: number
  level: SleepLevel
}

/** Adds a manual entry; a score outside 1..maxManualScore is a USAGE error and changes nothing. */
export async function addSleepDebt(
  brain: Brain,
  input: { score: number; description: string },
): Promise<AddedSleepDebt> {
  const policy = policyOf(brain)
  const now = brain.clock.now()
  return brain.state.update((state) => {
    const description = redactSecrets(input.description)
    const next = addManualEntry(state, { ...input, description, now, policy })
    const [session] = next.sessions
    if (!session) throw new Error('addManualEntry returned no session')
    return {
      state: next,
      result: { session, debt: next.debt, level: levelFor(policy, next.debt) },
    }
  })
}
