/**
 * Loads a brain and renders its snapshot: what the SessionStart hook prints and `somnus snapshot`
 * shows. On the hook path: reads everything in parallel and imports no heavy module.
 */
import { HEAD_CORE_FILES } from '../core/core-files.ts'
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import { countTriggerFires } from '../core/session-ledger.ts'
import type { SleepState } from '../core/sleep-state.ts'
import { renderSnapshot } from '../core/snapshot/render-snapshot.ts'
import type { SnapshotResult } from '../core/snapshot/snapshot-types.ts'
import type { Brain } from './brain.ts'
import {
  readChangelog,
  readExtendedCore,
  readFeatures,
  readKnowledge,
  readReleases,
  readTasks,
} from './brain-documents.ts'

/** Options of `buildSnapshot`. */
export interface BuildSnapshotOptions {
  /** Character budget; default `config.snapshot_budget_chars` (10,000). */
  budgetChars?: number
  /** The instant staleness and warmth are judged at; default the brain's clock. */
  now?: Date
  /**
   * The ledger, when the caller has just read it (SessionStart does, for the directive): parsing
   * `.sleep.json` again costs ~15 ms on a ledger of 1,000 sessions.
   */
  state?: SleepState
}

/**
 * The snapshot of `brain`. Read-only: the caller persists the fire counts of
 * `firedTriggerIds` (SessionStart does, in the same step as its other ledger work; the CLI calls
 * `recordTriggerFires`), so that one snapshot never counts twice.
 */
export async function buildSnapshot(
  brain: Brain,
  options: BuildSnapshotOptions = {},
): Promise<SnapshotResult> {
  const now = options.now ?? brain.clock.now()
  const [
    soul,
    user,
    memory,
    extendedCore,
    tasks,
    state,
    history,
    changelog,
    releases,
    features,
    knowledge,
  ] = await Promise.all([
    brain.files.read(HEAD_CORE_FILES.soul),
    brain.files.read(HEAD_CORE_FILES.user),
    brain.files.read(HEAD_CORE_FILES.memory),
    readExtendedCore(brain),
    readTasks(brain),
    options.state ?? brain.state.read(),
    brain.state.readHistory(),
    readChangelog(brain),
    readReleases(brain),
    readFeatures(brain),
    readKnowledge(brain),
  ])
  return renderSnapshot({
    now,
    budgetChars: options.budgetChars ?? brain.config.snapshot_budget_chars,
    policy: scoringPolicyFor(brain.config.scoring),
    head: { soul, user, memory },
    extendedCore,
    tasks,
    state,
    history,
    changelog,
    releases,
    features,
    knowledge,
  })
}

/** Adds one to `fired_count` of each trigger a shown snapshot surfaced. */
export async function recordTriggerFires(
  brain: Brain,
  firedTriggerIds: readonly string[],
): Promise<void> {
  if (firedTriggerIds.length === 0) return
  await brain.state.update((state) => ({
    state: countTriggerFires(state, firedTriggerIds),
    result: undefined,
  }))
}
