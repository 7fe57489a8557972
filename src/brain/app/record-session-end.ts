/** The SessionEnd hook's use case: record why the session ended and finish its score. */

import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import { recordSessionEnd as withSessionEnd } from '../core/session-ledger.ts'
import type { Brain } from './brain.ts'
import type { StopEvent } from './record-stop.ts'
import { readSessionOutcome } from './session-outcome.ts'

/**
 * Reads the transcript once more (it is complete now: Claude Code flushes it on exit) and records
 * the end reason. Scores are upserted as in Stop, so a session that was already scored is not
 * booked twice; a session that left no transcript and never stopped is not added.
 */
export async function recordSessionEnd(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  event: Omit<StopEvent, 'last_assistant_message'> & { reason: string | null },
): Promise<void> {
  const since = transcriptReadFrom(await brain.state.read(), event.session_id)
  const outcome = await readSessionOutcome(brain, analyzeSession, event.transcript_path, since)
  const now = brain.clock.now()
  await brain.state.update((state) => ({
    state: withSessionEnd(state, { ...event, last_assistant_message: null, outcome, now }),
    result: undefined,
  }))
}
