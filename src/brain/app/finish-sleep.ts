/** Use case: end a consolidation (`sleep done <summary>`): clear what was consolidated, log it. */

import { levelFor, type SleepLevel } from '../../engine/core/scoring/scoring-policy.ts'
import { completeSleep } from '../core/ledger.ts'
import type { SleepHistoryEntry } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'
import { policyOf } from './brain-scoring-policy.ts'

/** The history entry written, and what stayed for the next sleep. */
export interface FinishedSleep {
  history: SleepHistoryEntry
  /** Whether `sleep start` had set an epoch (then later work was kept). */
  had_epoch: boolean
  sessions_kept: number
  bookmarks_kept: number
  debt: number
  level: SleepLevel
}

/** Applies the epoch rules and prepends the history entry, under one lock. */
export async function finishSleep(brain: Brain, summary: string): Promise<FinishedSleep> {
  const policy = policyOf(brain)
  const now = brain.clock.now()
  return brain.state.update((state) => {
    const done = completeSleep(state, { summary, now })
    return {
      state: done.state,
      history: done.history,
      result: {
        history: done.history,
        had_epoch: state.sleep_started_at !== null,
        sessions_kept: done.state.sessions.length,
        bookmarks_kept: done.state.bookmarks.length,
        debt: done.state.debt,
        level: levelFor(policy, done.state.debt),
      },
    }
  })
}
