/** Use case: the triggers that can still fire (`trigger list`). */
import { activeTriggers } from '../core/ledger.ts'
import type { Trigger } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Triggers not yet expired, in the order they were added. */
export async function listTriggers(brain: Brain): Promise<Trigger[]> {
  return activeTriggers(await brain.state.read())
}
