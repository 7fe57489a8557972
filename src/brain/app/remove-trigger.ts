/** Use case: delete a trigger by id (`trigger remove <id>`). */
import { removeTrigger as removeTriggerFromLedger } from '../core/ledger.ts'
import type { Trigger } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Removes trigger `id` and returns it; an unknown id is a NOT_FOUND error. */
export async function removeTrigger(brain: Brain, id: string): Promise<Trigger> {
  return brain.state.update((state) => {
    const removed = state.triggers.find((trigger) => trigger.id === id)
    const next = removeTriggerFromLedger(state, id)
    if (!removed) throw new Error('removeTrigger accepted an unknown id')
    return { state: next, result: removed }
  })
}
