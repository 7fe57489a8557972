/**
 * `somnus sleep run`: the REM-sleep protocol of seed 001 without Claude Code
 * (docs/design/origins.md). Bookmarks first (by salience), then session summaries and transcripts
 * through the model, then the planned edits applied all-or-nothing, then `sleep done`.
 */

import { SomnusError } from '../../engine/core/errors.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { BrainDocument } from '../../engine/ports/brain-files.ts'
import type { LanguageModel, Observation, Unit, Usage } from '../../engine/ports/language-model.ts'
import type { SessionDigestResult } from '../../engine/ports/session-digests.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import { documentOfPlanKey, planKey } from '../core/sleep-run/plan-keys.ts'
import {
  type LandingDigest,
  planSleepRun,
  type SleepRunPlan,
} from '../core/sleep-run/plan-sleep-run.ts'
import type { UnitKind } from '../core/sleep-run/route-observation.ts'
import type { SalienceSchema, SessionRecord, SleepState } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'
import { addUsage, NO_USAGE, readDigests } from './read-session-digests.ts'

/** How to run one consolidation. */
export interface RunSleepOptions {
  model: LanguageModel
  /** Plan and return the plan without changing anything. */
  dryRun?: boolean
  /** Human and assistant turns of a session's transcript after `since` (omit: summaries only). */
  transcriptUnits?: (session: SessionRecord, since: string | null) => Promise<Unit[]>
  /**
   * The digest of a session's transcript after `since`. With it, each session that has a
   * transcript lands as a digest (kept whole, routed into the core files) instead of as units;
   * a session whose transcript cannot be read stays pending.
   */
  readDigest?: (session: SessionRecord, since: string | null) => Promise<SessionDigestResult>
  /** Progress lines for long runs. */
  onProgress?: (message: string) => void
  /** Cancels the model call: the run then rejects with ABORTED and applies none of its plan. */
  signal?: AbortSignal | undefined
}

/** What a run did (or, with dryRun, would do). */
export interface RunSleepResult {
  plan: SleepRunPlan
  applied: boolean
  /** True when an interrupted earlier run was finished first. */
  recovered: boolean
  /** The model that extracted the observations, and the tokens it consumed. */
  model: string
  usage: Usage
  /** Sessions left for the next sleep because their transcripts are not readable yet. */
  pending: string[]
  /** Files left as they were because they changed while the run worked (planned text kept aside). */
  conflicts: string[]
}

const SALIENCE_PRIORITY: Record<typeof SalienceSchema._zod.output, Observation['priority']> = {
  3: 'RED',
  2: 'YLW',
  1: 'GRN',
}

/**
 * Runs (or with `dryRun` only plans) one consolidation of `brain`. A real run holds the brain's
 * consolidation lock throughout: a second run at the same time fails with SLEEP_RUNNING.
 */
export async function runSleep(brain: Brain, options: RunSleepOptions): Promise<RunSleepResult> {
  if (options.dryRun) return consolidate(brain, options)
  const outcome = await brain.state.exclusive(() => consolidate(brain, options))
  if (outcome.ran) return outcome.value
  throw new SomnusError(
    'SLEEP_RUNNING',
    'Another `somnus sleep run` is consolidating this brain right now. Wait for it to finish, then run again (the lock of a run that was killed is taken over at once).',
  )
}

async function consolidate(brain: Brain, options: RunSleepOptions): Promise<RunSleepResult> {
  const progress = options.onProgress ?? (() => undefined)
  const recovered = options.dryRun ? false : (await brain.unitOfWork.finishInterrupted()) !== null
  if (recovered) progress('finished an interrupted sleep run first')
  // The epoch is taken before the ledger is read: whatever a hook records after it is read again
  // by the next sleep, and whatever the run reads is cleared by id, not by time.
  const epoch = brain.clock.now().toISOString()
  const state = await brain.state.read()
  const unscored = state.sessions.filter((session) => session.score === null)
  if (unscored.length > 0) {
    progress(
      `${unscored.length} session(s) left for the next sleep: their transcripts are not readable yet (${unscored.map((session) => session.session_id).join(', ')})`,
    )
  }
  const scored: SleepState = {
    ...state,
    sessions: state.sessions.filter((session) => session.score !== null),
  }
  const digested = await readDigests(scored, options, progress)
  const pending = [...unscored, ...digested.pending]
  const consolidated: SleepState = {
    ...scored,
    sessions: scored.sessions.filter((session) => !digested.pending.includes(session)),
  }
  const { units, kinds } = await gatherUnits(consolidated, options, progress, digested.bySession)
  const bookmarkObservations: Observation[] = consolidated.bookmarks.map((bookmark) => ({
    priority: SALIENCE_PRIORITY[bookmark.salience],
    // Ledgers written before redaction existed may still hold a secret: never pass it on.
    text: redactSecrets(bookmark.message),
    sources: [bookmark.id],
  }))
  for (const observation of bookmarkObservations)
    kinds.set(observation.sources[0] ?? '', 'bookmark')
  progress(`extracting observations from ${units.length} units with ${options.model.name}`)
  const call =
    units.length > 0
      ? await options.model.extractObservations({ units, signal: options.signal })
      : null
  const extracted = call?.value ?? []
  const usage = addUsage(call?.usage ?? NO_USAGE, digested.usage)
  const model = call?.model ?? digested.model ?? options.model.name
  // Summaries render turns as "speaker: text"; in a memory file the role prefix is noise.
  const observations = extracted.map((observation) => ({
    ...observation,
    text: observation.text.replace(/^(user|assistant): /i, ''),
  }))
  const [files, existingDigests] = await Promise.all([
    readEditableFiles(brain),
    brain.files.list('digest'),
  ])
  const plan = planSleepRun({
    digests: [...digested.bySession.values()].flatMap((landing) =>
      landing === null ? [] : [landing],
    ),
    existingDigests: existingDigests.flatMap((document) =>
      document.kind === 'digest' ? [document.slug] : [],
    ),
    now: brain.clock.now(),
    state: consolidated,
    observations: [...bookmarkObservations, ...observations],
    unitKinds: kinds,
    model: options.model.name,
    files: files.texts,
    tasks: files.tasks,
    features: files.features,
  })
  const result = { plan, recovered, model, usage, pending: pending.map((s) => s.session_id) }
  if (plan.empty || options.dryRun) return { ...result, applied: false, conflicts: [] }
  const applied = await brain.unitOfWork.commit({
    id: brain.ids.next('run'),
    createdAt: brain.clock.now().toISOString(),
    documents: plan.files.map((file) => ({
      document: documentOfPlanKey(file.path),
      before: file.before,
      text: file.after,
    })),
    ledger: {
      summary: plan.summary,
      epoch,
      triggers: plan.triggers,
      consolidated: {
        sessions: consolidated.sessions.map((session) => ({
          session_id: session.session_id,
          stopped_at: session.stopped_at,
        })),
        bookmarks: consolidated.bookmarks.map((bookmark) => bookmark.id),
      },
      model,
      usage,
    },
  })
  progress(plan.summary)
  return { ...result, applied: true, conflicts: applied.conflicts }
}

async function gatherUnits(
  state: SleepState,
  options: RunSleepOptions,
  progress: (message: string) => void,
  digested: ReadonlyMap<string, LandingDigest | null>,
): Promise<{ units: Unit[]; kinds: Map<string, UnitKind> }> {
  const units: Unit[] = []
  const kinds = new Map<string, UnitKind>()
  // A digested session's material is in its digest: its closing message and turns are not read again.
  const sessions = state.sessions.filter((session) => !digested.has(session.session_id))
  for (const [index, session] of sessions.entries()) {
    if (session.last_assistant_message) {
      units.push({
        id: session.session_id,
        text: redactSecrets(session.last_assistant_message),
        speaker: 'assistant',
        ...(session.stopped_at ? { timestamp: session.stopped_at } : {}),
      })
      kinds.set(session.session_id, 'session')
    }
    if (options.transcriptUnits && session.transcript_path) {
      progress(`reading session ${index + 1}/${sessions.length}: ${session.session_id}`)
      for (const unit of await options.transcriptUnits(
        session,
        transcriptReadFrom(state, session.session_id),
      )) {
        units.push(unit)
        kinds.set(unit.id, unit.speaker === 'user' ? 'user' : 'assistant')
      }
    }
  }
  return { units, kinds }
}

/** The documents a sleep run may edit besides tasks and features. */
const EDITABLE: readonly BrainDocument[] = [
  { kind: 'core', name: 'user' },
  { kind: 'core', name: 'memory' },
  { kind: 'core', name: 'changelog' },
  { kind: 'archive', of: 'user' },
  { kind: 'archive', of: 'memory' },
]

/** The editable documents' texts, keyed as the planner names them. */
async function readEditableFiles(brain: Brain) {
  const [taskDocuments, featureDocuments] = await Promise.all([
    brain.files.list('task'),
    brain.files.list('feature'),
  ])
  const read = async (document: BrainDocument) => ({
    path: planKey(document),
    text: await brain.files.read(document),
  })
  const [core, tasks, features] = await Promise.all([
    Promise.all(EDITABLE.map(read)),
    Promise.all(taskDocuments.map(read)),
    Promise.all(featureDocuments.map(read)),
  ])
  const present = (files: { path: string; text: string | null }[]) =>
    files.flatMap((file) => (file.text === null ? [] : [{ path: file.path, text: file.text }]))
  const texts = new Map<string, string | null>(core.map((file) => [file.path, file.text]))
  for (const file of [...tasks, ...features]) texts.set(file.path, file.text)
  return { texts, tasks: present(tasks), features: present(features) }
}
