/**
 * The SessionStart hook's use case: finish an interrupted sleep run and pending scores, then hand the agent its context, the
 * consolidation directive first (Claude Code may keep only the start of long hook output,
 * research/seed-systems.md 6.3), then the snapshot, all within `snapshot_budget_chars`.
 */
import { consolidationDirective } from '../core/directive.ts'
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import { countTriggerFires } from '../core/session-ledger.ts'
import type { SleepState } from '../core/sleep-state.ts'
import type { AnalyzeSession } from '../ports/session-transcripts.ts'
import type { Brain } from './brain.ts'
import { buildSnapshot } from './build-snapshot.ts'
import { finishPendingScores } from './finish-pending-sessions.ts'
import { messageOf } from './session-outcome.ts'
import { finishSleepRun } from './sleep-run-journal.ts'

/** Between the directive and the snapshot. */
const SEPARATOR = '\n\n'

/** What SessionStart prints, and what it did on the way. */
export interface SessionStartContext {
  /** The whole output: directive (if any), blank line, snapshot. At most the budget. */
  text: string
  directive: string | null
  /** Sessions whose pending score was finished by this call. */
  finishedSessions: string[]
  firedTriggerIds: string[]
}

/**
 * Scores what Stop could not, builds the directive and a snapshot that fits in what the directive
 * leaves of the budget, and persists the fire counts of the triggers the snapshot surfaced (a
 * trigger fires at most `max_fires` times before `sleep done` expires it).
 */
export async function sessionStartContext(
  brain: Brain,
  analyzeSession: AnalyzeSession,
): Promise<SessionStartContext> {
  // A `sleep run` killed after its commit point is finished before anything is read, so a new
  // session sees the brain as before the sleep or as after it, never half-written.
  await finishSleepRun(brain)
  const { finished: finishedSessions, state } = await finishPendingOrRead(brain, analyzeSession)
  const now = brain.clock.now()
  const budget = brain.config.snapshot_budget_chars
  const directive = consolidationDirective({
    state,
    policy: scoringPolicyFor(brain.config.scoring),
    now,
    rhythmSessions: brain.config.rhythm_sessions,
  })
  const reserved = directive === null ? 0 : directive.length + SEPARATOR.length
  // The ledger just read is handed on: parsing a large `.sleep.json` twice is most of the cost.
  const snapshot = await buildSnapshot(brain, {
    budgetChars: Math.max(0, budget - reserved),
    now,
    state,
  })
  if (snapshot.firedTriggerIds.length > 0) {
    // The context matters more than the bookkeeping: a ledger that cannot be written (lock held
    // too long, disk full) is reported, and the agent still gets its directive and snapshot.
    try {
      await brain.state.update((current) => ({
        state: countTriggerFires(current, snapshot.firedTriggerIds),
        result: undefined,
      }))
    } catch (error) {
      brain.warn(`trigger fire counts not saved: ${messageOf(error)}`)
    }
  }
  const joined = directive === null ? snapshot.text : `${directive}${SEPARATOR}${snapshot.text}`
  // The snapshot demotes sections to fit; this cut only guards a directive larger than the budget.
  const text = joined.length > budget ? joined.slice(0, budget) : joined
  return { text, directive, finishedSessions, firedTriggerIds: snapshot.firedTriggerIds }
}

/** Finishes pending scores; if the ledger cannot be written, says so and carries on reading. */
async function finishPendingOrRead(
  brain: Brain,
  analyzeSession: AnalyzeSession,
): Promise<{ finished: string[]; state: SleepState }> {
  try {
    return await finishPendingScores(brain, analyzeSession)
  } catch (error) {
    brain.warn(`pending scores not finished: ${messageOf(error)}`)
    return { finished: [], state: await brain.state.read() }
  }
}
