/** The Stop hook's use case: record the turn that just ended and book its score. */

import { capClosingMessage, MAX_CLOSING_MESSAGE_CHARS } from '../core/closing-message.ts'
import { isSomnusError } from '../core/errors.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import { redactSecrets } from '../core/redact-secrets.ts'
import {
  findSession,
  type TranscriptOutcome,
  upsertStoppedSession,
} from '../core/session-ledger.ts'
import type { SessionRecord, SleepState } from '../core/sleep-state.ts'
import type { AnalyzeSession } from '../ports/session-transcripts.ts'
import type { Brain } from './brain.ts'
import { readSessionOutcome } from './session-outcome.ts'

/** How much of a closing message is redacted before the ledger caps it. */
const REDACTED_PREFIX_CHARS = 16 * MAX_CLOSING_MESSAGE_CHARS

/** What Claude Code told the Stop hook. */
export interface StopEvent {
  session_id: string
  transcript_path: string | null
  last_assistant_message: string | null
}

/** What recording a Stop did; `queued` when it went to the inbox (the lock was busy too long). */
export interface StopRecorded {
  session: SessionRecord
  outcome: TranscriptOutcome['kind']
  isNew: boolean
  queued: boolean
}

/**
 * Analyses the session's transcript (only what came after the last consolidation, so work already
 * slept on is not booked twice), then upserts the session under the ledger lock. Stop fires once
 * per turn: each call replaces the session's previous score instead of adding to it. When the
 * lock cannot be had in time (STATE_LOCKED), the booking goes to the ledger's inbox instead, and
 * the next holder of the lock merges it: no turn is lost to a busy machine.
 */
export async function recordStop(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  event: StopEvent,
): Promise<StopRecorded> {
  const before = await brain.state.read()
  const since = transcriptReadFrom(before, event.session_id)
  const outcome = await readSessionOutcome(brain, analyzeSession, event.transcript_path, since)
  const now = brain.clock.now()
  // The closing message is transcript text: no secret of it may reach the ledger. The ledger
  // keeps only its start, so only a generous start is redacted (a 100 MB message would cost the
  // hook seconds); the margin keeps a secret near the cut from being kept half-redacted.
  const message =
    event.last_assistant_message === null
      ? null
      : redactSecrets(event.last_assistant_message.slice(0, REDACTED_PREFIX_CHARS))
  const stopped = { ...event, last_assistant_message: message, outcome, now }
  const book = (state: SleepState) => {
    const isNew = findSession(state, event.session_id) === undefined
    const next = upsertStoppedSession(state, stopped)
    const session = findSession(next, event.session_id) as SessionRecord
    return { state: next, result: { session, outcome: outcome.kind, isNew, queued: false } }
  }
  try {
    return await brain.state.update(book)
  } catch (error) {
    if (!isSomnusError(error) || error.code !== 'STATE_LOCKED') throw error
  }
  await brain.state.queue({
    id: `${brain.ids.next('stop')}.${now.getTime()}`,
    session_id: event.session_id,
    transcript_path: event.transcript_path,
    last_assistant_message: message === null ? null : capClosingMessage(message),
    outcome,
    now: now.toISOString(),
  })
  brain.warn(`the ledger was busy; queued this Stop in the inbox for the next writer to merge`)
  // What the ledger will hold once merged, as far as this Stop can tell.
  return { ...book(before).result, queued: true }
}
