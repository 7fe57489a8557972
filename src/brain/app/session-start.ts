/**
 * The SessionStart hook's use case: finish an interrupted sleep run and pending scores, then hand the agent its context, the
 * consolidation directive first (Claude Code may keep only the start of long hook output,
 * research/seed-systems.md 6.3), then the snapshot, all within `snapshot_budget_chars`.
 */

import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import { consolidationDirective } from '../core/directive.ts'
import { type MissedSessionsQuery, missedSessions } from '../core/missed-sessions.ts'
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import { countTriggerFires, pendingSessions } from '../core/session-ledger.ts'
import type { SleepState } from '../core/sleep-state.ts'
import { renderSnapshot } from '../core/snapshot/render-snapshot.ts'
import type { SnapshotResult } from '../core/snapshot/snapshot-types.ts'
import { withSomnusCommand } from '../core/somnus-command.ts'
import type { ListSiblingTranscripts } from '../ports/session-transcripts-folder.ts'
import type { Brain } from './brain.ts'
import { readSnapshotDocuments } from './build-snapshot.ts'
import { catchUpMissedSessions } from './catch-up-missed-sessions.ts'
import { finishPendingScores } from './finish-pending-sessions.ts'
import { messageOf } from './session-outcome.ts'

/** Between the directive and the snapshot. */
const SEPARATOR = '\n\n'

/** What SessionStart prints, and what it did on the way. */
export interface SessionStartContext {
  /** The whole output: directive (if any), blank line, snapshot. At most the budget. */
  text: string
  directive: string | null
  /** Sessions whose pending score was finished by this call. */
  finishedSessions: string[]
  /** Sessions no Stop had booked, booked by this call from their transcripts. */
  caughtUpSessions: string[]
  firedTriggerIds: string[]
}

/** SessionStart's notice when the project's sleep agent is not Somnus's (see dispatchSleepAgent). */
const UNTRUSTED_SLEEP_AGENT =
  '.claude/agents/somnus-rem-sleep.md in this project is not the file Somnus installs: Somnus will not have it dispatched (a repository can plant one with its own instructions). If it is yours, delete it and run `somnus init`; `somnus sleep run` consolidates meanwhile.'

/** How the context is shown. */
export interface SessionStartOptions {
  /**
   * The command Claude runs Somnus with (`"<node>" "<package>/bin/somnus.js"`), put in place of
   * `somnus` in every command the directive and the snapshot name; default `somnus`.
   */
  somnusCommand?: string
  /**
   * False when the project's `.claude/agents/somnus-rem-sleep.md` is not Somnus's own (the
   * composition checks it): the directive then says not to dispatch it, and a notice says why.
   */
  dispatchSleepAgent?: boolean
  /**
   * The starting session, from the hook's payload: the transcripts beside its own (and nowhere
   * else) that the ledger does not know are booked, a few per start (see missed-sessions.ts).
   */
  catchUp?: MissedSessionsQuery & {
    transcriptPath: string
    listSiblings: ListSiblingTranscripts
  }
}

/** What one rendering of the ledger gave: the directive and the snapshot. */
interface Shown {
  directive: string | null
  snapshot: SnapshotResult
}

/**
 * Scores what Stop could not, builds the directive and a snapshot that fits in what the directive
 * leaves of the budget, and persists the fire counts of the triggers the snapshot surfaced (a
 * trigger fires at most `max_fires` times before `sleep done` expires it).
 * The ledger is read once, inside the locked update that saves those counts: parsing and checking
 * a large `.sleep.json` is most of a SessionStart's cost.
 */
export async function sessionStartContext(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  options: SessionStartOptions = {},
): Promise<SessionStartContext> {
  // A `sleep run` killed after its commit point is finished before anything is read, so a new
  // session sees the brain as before the sleep or as after it, never half-written.
  // Cheap when there is none (one failed read); a live run holding the brain finishes its own.
  if (await brain.unitOfWork.hasInterrupted()) {
    await brain.state.exclusive(() => brain.unitOfWork.finishInterrupted())
  }
  const documents = await readSnapshotDocuments(brain)
  const now = brain.clock.now()
  const budget = brain.config.snapshot_budget_chars
  const policy = scoringPolicyFor(brain.config.scoring)
  const command = options.somnusCommand ?? 'somnus'
  const show = (state: SleepState): Shown => {
    const plain = consolidationDirective({
      state,
      policy,
      now,
      rhythmSessions: brain.config.rhythm_sessions,
      dispatchAgent: options.dispatchSleepAgent !== false,
    })
    const directive = plain === null ? null : withSomnusCommand(plain, command)
    const reserved = directive === null ? 0 : directive.length + SEPARATOR.length
    const budgetChars = Math.max(0, budget - reserved)
    return {
      directive,
      snapshot: renderSnapshot({ ...documents, state, now, policy, budgetChars, command }),
    }
  }
  let finishedSessions: string[] = []
  let caughtUpSessions: string[] = []
  const { catchUp } = options
  // A folder listing and one lstat per file: no transcript is read unless one was missed.
  const siblings = catchUp === undefined ? [] : listOrWarn(brain, catchUp)
  const hasMissed = (state: SleepState): boolean =>
    catchUp !== undefined && missedSessions(state, siblings, catchUp).length > 0
  let shown = await showCountingFires(brain, show, {
    unless: (state) => pendingSessions(state).length > 0 || hasMissed(state),
  })
  if (shown === null) {
    // Rare: a Stop could not read its transcript, or never ran. Reading transcripts takes a
    // while, so it is done outside the lock, then the ledger is shown as it now is.
    finishedSessions = await finishPendingOrWarn(brain, analyzeSession)
    if (catchUp !== undefined) {
      caughtUpSessions = await catchUpOrWarn(brain, analyzeSession, siblings, catchUp)
    }
    shown = (await showCountingFires(brain, show, { unless: () => false })) as Shown
  }
  const { directive, snapshot } = shown
  const shownText = directive === null ? snapshot.text : `${directive}${SEPARATOR}${snapshot.text}`
  const notices = [
    ...(options.dispatchSleepAgent === false ? [`[somnus] ${UNTRUSTED_SLEEP_AGENT}\n`] : []),
    ...(brain.notices ?? []).map((notice) => `[somnus settings] ${notice}\n`),
  ].join('')
  const joined = notices === '' ? shownText : `${notices}\n${shownText}`
  // The snapshot demotes sections to fit; this cut only guards a directive larger than the budget.
  const text = joined.length > budget ? joined.slice(0, budget) : joined
  return {
    text,
    directive,
    finishedSessions,
    caughtUpSessions,
    firedTriggerIds: snapshot.firedTriggerIds,
  }
}

/**
 * Shows the ledger and adds the fires to it in one locked update; null (nothing shown or saved)
 * when `unless` holds (a score is pending, a session was missed). The context matters more than the
 * bookkeeping: a ledger that cannot be written (lock held too long, read-only disk) is reported,
 * and the agent still gets its directive and snapshot.
 */
async function showCountingFires(
  brain: Brain,
  show: (state: SleepState) => Shown,
  options: { unless: (state: SleepState) => boolean },
): Promise<Shown | null> {
  const showUnlessPending = (state: SleepState): Shown | null =>
    options.unless(state) ? null : show(state)
  try {
    return await brain.state.update((state) => {
      const shown = showUnlessPending(state)
      const fired = shown?.snapshot.firedTriggerIds ?? []
      return { state: countTriggerFires(state, fired), result: shown }
    })
  } catch (error) {
    const shown = showUnlessPending(await brain.state.read())
    const fired = shown?.snapshot.firedTriggerIds.length ?? 0
    brain.warn(
      fired > 0
        ? `trigger fire counts not saved: ${messageOf(error)}`
        : `read the ledger without its lock (nothing to save): ${messageOf(error)}`,
    )
    return shown
  }
}

/** Finishes pending scores; if the ledger cannot be written, says so and carries on. */
async function finishPendingOrWarn(
  brain: Brain,
  analyzeSession: AnalyzeSession,
): Promise<string[]> {
  try {
    return (await finishPendingScores(brain, analyzeSession)).finished
  } catch (error) {
    brain.warn(`pending scores not finished: ${messageOf(error)}`)
    return []
  }
}

/** The transcripts beside the starting session's; none (with a warning) if listing throws. */
function listOrWarn(
  brain: Brain,
  catchUp: NonNullable<SessionStartOptions['catchUp']>,
): ReturnType<ListSiblingTranscripts> {
  try {
    return catchUp.listSiblings(catchUp.transcriptPath)
  } catch (error) {
    brain.warn(`missed sessions not looked for: ${messageOf(error)}`)
    return []
  }
}

/** Books missed sessions; if the ledger cannot be written, says so and carries on. */
async function catchUpOrWarn(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  siblings: ReturnType<ListSiblingTranscripts>,
  query: MissedSessionsQuery,
): Promise<string[]> {
  try {
    return await catchUpMissedSessions(brain, analyzeSession, siblings, query)
  } catch (error) {
    brain.warn(`missed sessions not booked: ${messageOf(error)}`)
    return []
  }
}
