/** Use case: mark the start of a consolidation (`sleep start`), setting the epoch. */
import { startSleep as startSleepInLedger } from '../core/ledger.ts'
import type { Brain } from './brain.ts'

/** The epoch just set, and the one it replaced if a consolidation was already marked running. */
export interface StartedSleep {
  started_at: string
  previous_started_at: string | null
}

/** Sets `sleep_started_at` to now. Work recorded after it survives `finishSleep`. */
export async function startSleep(brain: Brain): Promise<StartedSleep> {
  const now = brain.clock.now()
  return brain.state.update((state) => {
    const started = startSleepInLedger(state, now)
    return {
      state: started.state,
      result: { started_at: now.toISOString(), previous_started_at: started.previousStartedAt },
    }
  })
}
