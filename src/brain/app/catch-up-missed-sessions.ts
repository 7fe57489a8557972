/**
 * SessionStart's catch-up of Stops that never reached the ledger (seed 000: SessionStart analyses
 * the transcripts of sessions the Stop missed). A Stop killed at Claude Code's 5 s timeout before
 * Node reached its inbox append left no trace but its transcript, beside the new session's own.
 */

import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import {
  type MissedSessionsQuery,
  missedSessions,
  type SiblingTranscript,
} from '../core/missed-sessions.ts'
import {
  findSession,
  type TranscriptOutcome,
  upsertStoppedSession,
} from '../core/session-ledger.ts'
import type { Brain } from './brain.ts'
import { readSessionOutcome } from './session-outcome.ts'

/**
 * Reads the missed sessions' transcripts outside the lock, exactly as their Stop would have
 * (same reader, same policy, only what came after the last consolidation), then books each under
 * the lock as its Stop would, unless a Stop booked it meanwhile: a later Stop of the session
 * replaces the score (upsert), never adds to it. Returns the ids booked.
 */
export async function catchUpMissedSessions(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  siblings: readonly SiblingTranscript[],
  query: MissedSessionsQuery,
): Promise<string[]> {
  const before = await brain.state.read()
  const missed = missedSessions(before, siblings, query)
  if (missed.length === 0) return []
  const outcomes = new Map<string, { path: string; outcome: TranscriptOutcome }>()
  for (const sibling of missed) {
    const since = transcriptReadFrom(before, sibling.sessionId)
    const outcome = await readSessionOutcome(brain, analyzeSession, sibling.path, since)
    outcomes.set(sibling.sessionId, { path: sibling.path, outcome })
  }
  const now = brain.clock.now()
  return brain.state.update((state) => {
    let next = state
    const booked: string[] = []
    for (const [sessionId, { path, outcome }] of outcomes) {
      if (findSession(next, sessionId) !== undefined) continue
      next = upsertStoppedSession(next, {
        session_id: sessionId,
        transcript_path: path,
        last_assistant_message: null,
        outcome,
        now,
      })
      booked.push(sessionId)
    }
    return { state: next, result: booked }
  })
}
