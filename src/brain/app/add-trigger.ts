/** Use case: add a prospective reminder (`trigger add <when> <remind>`). */

import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { addTrigger as addTriggerToLedger } from '../core/ledger.ts'
import type { Trigger } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Adds a trigger (max_fires defaults to 3), secrets redacted, and returns it. */
export async function addTrigger(
  brain: Brain,
  input: { when: string; remind: string; maxFires?: number; source?: string | null },
): Promise<Trigger> {
  const now = brain.clock.now()
  const id = brain.ids.next('trg')
  return brain.state.update((state) => {
    const next = addTriggerToLedger(state, {
      ...input,
      when: redactSecrets(input.when),
      remind: redactSecrets(input.remind),
      id,
      now,
    })
    const trigger = next.triggers.at(-1)
    if (!trigger) throw new Error('addTrigger returned no trigger')
    return { state: next, result: trigger }
  })
}
