/** SessionStart's catch-up: score every session whose transcript was not readable at Stop. */

import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import {
  finishPendingSessions,
  pendingSessions,
  type TranscriptOutcome,
} from '../core/session-ledger.ts'
import type { SleepState } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'
import { readSessionOutcome } from './session-outcome.ts'

/**
 * Pending transcripts one SessionStart reads. A ledger is repository text, and 20,000 planted
 * pending sessions must not make every start read 20,000 files; but a burst of Stops killed on a
 * busy machine leaves real turns pending (the burst soak: 176 of 200), and each should be counted
 * by the next start. 200 covers such a burst; a planted one costs 200 failed reads (one stat each)
 * and the hook log's cap. The rest wait for later starts, or are booked at 0 after seven days.
 */
export const PENDING_SESSIONS_PER_START = 200

/**
 * Reads the transcripts of pending sessions (outside the lock: reading can take a while), then
 * books what was read under the lock. Sessions pending for over seven days, or with no transcript
 * path, are booked at 0. At most PENDING_SESSIONS_PER_START transcripts are read. Returns the ids
 * whose score was finished and the ledger as it now is.
 * Nothing pending (the common case): one read, no lock, no write.
 */
export async function finishPendingScores(
  brain: Brain,
  analyzeSession: AnalyzeSession,
): Promise<{ finished: string[]; state: SleepState }> {
  const before = await brain.state.read()
  const pending = pendingSessions(before)
  if (pending.length === 0) return { finished: [], state: before }
  const outcomes = new Map<string, TranscriptOutcome>()
  const toRead = pending
    .filter((session) => session.transcript_path !== null)
    .slice(0, PENDING_SESSIONS_PER_START)
  for (const session of toRead) {
    const outcome = await readSessionOutcome(
      brain,
      analyzeSession,
      session.transcript_path,
      transcriptReadFrom(before, session.session_id),
    )
    outcomes.set(session.session_id, outcome)
  }
  const now = brain.clock.now()
  return brain.state.update((state) => {
    const { state: next, finished } = finishPendingSessions(state, outcomes, now)
    return { state: next, result: { finished, state: next } }
  })
}
