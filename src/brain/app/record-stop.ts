/** The Stop hook's use case: record the turn that just ended and book its score. */

import { isSomnusError } from '../../engine/core/errors.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import { capClosingMessage, MAX_CLOSING_MESSAGE_CHARS } from '../core/closing-message.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import {
  findSession,
  type TranscriptOutcome,
  upsertStoppedSession,
} from '../core/session-ledger.ts'
import type { SessionRecord, SleepState } from '../core/sleep-state.ts'
import type { QueuedStop } from '../core/stop-inbox.ts'
import type { Brain } from './brain.ts'
import { messageOf, readSessionOutcome } from './session-outcome.ts'

/** How much of a closing message is redacted before the ledger caps it. */
const REDACTED_PREFIX_CHARS = 16 * MAX_CLOSING_MESSAGE_CHARS

/** What Claude Code told the Stop hook. */
export interface StopEvent {
  session_id: string
  transcript_path: string | null
  last_assistant_message: string | null
}

/**
 * What recording a Stop did; `queued` when its scored booking went to the inbox (the lock was
 * busy too long).
 */
export interface StopRecorded {
  session: SessionRecord
  outcome: TranscriptOutcome['kind']
  queued: boolean
}

/**
 * Books the turn in two steps, so that no turn is lost to a busy machine:
 *
 * 1. At once, before any other work and without the lock, the Stop appends a pending booking of
 *    its session to the ledger's inbox (one O_APPEND line). A Stop killed after this point (Claude
 *    Code kills it at 5 s) has still recorded its turn: the next holder of the lock merges the
 *    line, and SessionStart's catch-up scores the pending session from its transcript.
 * 2. Then it analyses the transcript (only what came after the last consolidation, so work
 *    already slept on is not booked twice) and upserts the session under the ledger lock. The
 *    lock holder merges the inbox first, its own pending line included, and records the line's id
 *    in the same atomic write: the scored booking replaces the pending one, never adds to it.
 *    When the lock cannot be had in time (STATE_LOCKED), the scored booking is queued too, as a
 *    second line; merging applies a session's lines oldest first, a pending line before a scored
 *    one of the same instant, and an upsert replaces a session's score: counted once either way.
 *
 * Stop fires once per turn: each call replaces the session's previous score instead of adding to
 * it.
 */
export async function recordStop(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  event: StopEvent,
): Promise<StopRecorded> {
  const now = brain.clock.now()
  // The closing message is transcript text: no secret of it may reach the ledger or the inbox.
  // The ledger keeps only its start, so only a generous start is redacted (a 100 MB message would
  // cost the hook seconds); the margin keeps a secret near the cut from being kept half-redacted.
  const message =
    event.last_assistant_message === null
      ? null
      : redactSecrets(event.last_assistant_message.slice(0, REDACTED_PREFIX_CHARS))
  const id = `${brain.ids.next('stop')}.${now.getTime()}`
  const queued = (outcome: TranscriptOutcome): QueuedStop => ({
    id: `${id}.${outcome.kind}`,
    session_id: event.session_id,
    transcript_path: event.transcript_path,
    last_assistant_message: message === null ? null : capClosingMessage(message),
    outcome,
    now: now.toISOString(),
  })
  try {
    await brain.state.queue(queued({ kind: 'pending' }))
  } catch (error) {
    // A planted link or FIFO under the inbox's name must not stop the turn from being booked
    // under the lock (whose merge moves that file aside).
    brain.warn(
      `could not queue this Stop before the lock, booking it directly: ${messageOf(error)}`,
    )
  }
  const before = await brain.state.read({ inbox: false })
  const since = transcriptReadFrom(before, event.session_id)
  const outcome = await readSessionOutcome(brain, analyzeSession, event.transcript_path, since)
  const stopped = { ...event, last_assistant_message: message, outcome, now }
  const book = (state: SleepState) => {
    const next = upsertStoppedSession(state, stopped)
    const session = findSession(next, event.session_id) as SessionRecord
    return { state: next, result: { session, outcome: outcome.kind, queued: false } }
  }
  try {
    return await brain.state.update(book)
  } catch (error) {
    if (!isSomnusError(error) || error.code !== 'STATE_LOCKED') throw error
  }
  // A pending outcome is what the first line already says: one line is enough.
  if (outcome.kind !== 'pending') await brain.state.queue(queued(outcome))
  brain.warn(`the ledger was busy; queued this Stop in the inbox for the next writer to merge`)
  // What the ledger will hold once merged, as far as this Stop can tell.
  return { ...book(before).result, queued: true }
}
