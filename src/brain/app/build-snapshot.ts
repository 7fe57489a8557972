/**
 * Loads a brain and renders its snapshot: what the SessionStart hook prints and `somnus snapshot`
 * shows. On the hook path: reads everything in parallel and imports no heavy module.
 */
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import { countTriggerFires } from '../core/session-ledger.ts'
import { renderSnapshot } from '../core/snapshot/render-snapshot.ts'
import { RECENT_DIGESTS } from '../core/snapshot/session-sections.ts'
import type { SnapshotInput, SnapshotResult } from '../core/snapshot/snapshot-types.ts'
import type { Brain } from './brain.ts'
import {
  readChangelog,
  readExtendedCore,
  readFeatures,
  readKnowledge,
  readRecentDigests,
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
   * The command Claude runs Somnus with, put in place of `somnus` in every command the snapshot
   * names (see brain/core/somnus-command.ts); default `somnus`.
   */
  somnusCommand?: string
}

/** What a snapshot shows besides the ledger and the settings: the brain's documents, read. */
export type SnapshotDocuments = Omit<
  SnapshotInput,
  'now' | 'budgetChars' | 'policy' | 'state' | 'command'
>

/** Reads everything the snapshot shows except the ledger, in parallel. */
export async function readSnapshotDocuments(brain: Brain): Promise<SnapshotDocuments> {
  const [
    soul,
    user,
    memory,
    extendedCore,
    tasks,
    history,
    changelog,
    releases,
    features,
    knowledge,
    digests,
  ] = await Promise.all([
    brain.files.read({ kind: 'core', name: 'soul' }),
    brain.files.read({ kind: 'core', name: 'user' }),
    brain.files.read({ kind: 'core', name: 'memory' }),
    readExtendedCore(brain),
    readTasks(brain),
    brain.state.readHistory(),
    readChangelog(brain),
    readReleases(brain),
    readFeatures(brain),
    readKnowledge(brain),
    readRecentDigests(brain, RECENT_DIGESTS),
  ])
  return {
    head: { soul, user, memory },
    extendedCore,
    tasks,
    history,
    changelog,
    releases,
    features,
    knowledge,
    digests,
  }
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
  const [documents, state] = await Promise.all([readSnapshotDocuments(brain), brain.state.read()])
  return renderSnapshot({
    ...documents,
    state,
    now: options.now ?? brain.clock.now(),
    budgetChars: options.budgetChars ?? brain.config.snapshot_budget_chars,
    policy: scoringPolicyFor(brain.config.scoring),
    command: options.somnusCommand,
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
