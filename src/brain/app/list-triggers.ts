/** Use case: the triggers that can still fire (`trigger list`). */

import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { activeTriggers } from '../core/ledger.ts'
import type { Trigger } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/** Triggers not yet expired, in the order they were added, secrets redacted. */
export async function listTriggers(brain: Brain): Promise<Trigger[]> {
  // A ledger written before redaction existed may still hold a secret in a trigger.
  return activeTriggers(await brain.state.read()).map((trigger) => ({
    ...trigger,
    when: redactSecrets(trigger.when),
    remind: redactSecrets(trigger.remind),
  }))
}
