/**
 * `somnus sleep run`: the REM-sleep protocol of seed 001 without Claude Code. Bookmarks first (by
 * salience), then session summaries and transcripts through the model, then the planned edits
 * applied all-or-nothing, then `sleep done`.
 */

import { planSleepRun, type SleepRunPlan } from '../core/sleep-run/plan-sleep-run.ts'
import { CORE_FILES, type UnitKind } from '../core/sleep-run/route-observation.ts'
import type { SalienceSchema, SessionRecord, SleepState } from '../core/sleep-state.ts'
import type { LanguageModel, Observation, Unit, Usage } from '../ports/language-model.ts'
import type { Brain } from './brain.ts'
import {
  commitSleepRun,
  finishSleepRun,
  removeLeftoverTempFiles,
  SLEEP_RUN_JOURNAL,
} from './sleep-run-journal.ts'

/** How to run one consolidation. */
export interface RunSleepOptions {
  model: LanguageModel
  /** Plan and return the plan without changing anything. */
  dryRun?: boolean
  /** Human and assistant turns of a session's transcript after `since` (omit: summaries only). */
  transcriptUnits?: (session: SessionRecord, since: string | null) => Promise<Unit[]>
  /** Progress lines for long runs. */
  onProgress?: (message: string) => void
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
}

const SALIENCE_PRIORITY: Record<typeof SalienceSchema._zod.output, Observation['priority']> = {
  3: 'RED',
  2: 'YLW',
  1: 'GRN',
}

/** Runs (or with `dryRun` only plans) one consolidation of `brain`. */
export async function runSleep(brain: Brain, options: RunSleepOptions): Promise<RunSleepResult> {
  const progress = options.onProgress ?? (() => undefined)
  const recovered = options.dryRun ? false : await finishSleepRun(brain)
  // A run killed while writing its journal (before the commit point) leaves only a temp file.
  if (!options.dryRun) await removeLeftoverTempFiles(brain, [SLEEP_RUN_JOURNAL])
  if (recovered) progress('finished an interrupted sleep run first')
  const state = await brain.state.read()
  const epoch = brain.clock.now().toISOString()
  const { units, kinds } = await gatherUnits(state, epoch, options, progress)
  const bookmarkObservations: Observation[] = state.bookmarks
    .filter((bookmark) => bookmark.created_at <= epoch)
    .map((bookmark) => ({
      priority: SALIENCE_PRIORITY[bookmark.salience],
      text: bookmark.message,
      sources: [bookmark.id],
    }))
  for (const observation of bookmarkObservations)
    kinds.set(observation.sources[0] ?? '', 'bookmark')
  progress(`extracting observations from ${units.length} units with ${options.model.name}`)
  const call = units.length > 0 ? await options.model.extractObservations({ units }) : null
  const extracted = call?.value ?? []
  const usage: Usage = call?.usage ?? { input_tokens: 0, output_tokens: 0 }
  const model = call?.model ?? options.model.name
  // Summaries render turns as "speaker: text"; in a memory file the role prefix is noise.
  const observations = extracted.map((observation) => ({
    ...observation,
    text: observation.text.replace(/^(user|assistant): /i, ''),
  }))
  const files = await readEditableFiles(brain)
  const plan = planSleepRun({
    now: brain.clock.now(),
    epoch,
    state,
    observations: [...bookmarkObservations, ...observations],
    unitKinds: kinds,
    model: options.model.name,
    files: files.texts,
    tasks: files.tasks,
    features: files.features,
  })
  if (plan.empty || options.dryRun) return { plan, applied: false, recovered, model, usage }
  await commitSleepRun(brain, {
    id: brain.ids.next('run'),
    epoch,
    created_at: brain.clock.now().toISOString(),
    summary: plan.summary,
    files: plan.files.map((file) => ({ path: file.path, text: file.after })),
    triggers: plan.triggers,
    model,
    usage,
  })
  await finishSleepRun(brain)
  progress(plan.summary)
  return { plan, applied: true, recovered, model, usage }
}

async function gatherUnits(
  state: SleepState,
  epoch: string,
  options: RunSleepOptions,
  progress: (message: string) => void,
): Promise<{ units: Unit[]; kinds: Map<string, UnitKind> }> {
  const units: Unit[] = []
  const kinds = new Map<string, UnitKind>()
  const sessions = state.sessions.filter(
    (session) => session.stopped_at === null || session.stopped_at <= epoch,
  )
  for (const [index, session] of sessions.entries()) {
    if (session.last_assistant_message) {
      units.push({
        id: session.session_id,
        text: session.last_assistant_message,
        speaker: 'assistant',
        ...(session.stopped_at ? { timestamp: session.stopped_at } : {}),
      })
      kinds.set(session.session_id, 'session')
    }
    if (options.transcriptUnits && session.transcript_path) {
      progress(`reading session ${index + 1}/${sessions.length}: ${session.session_id}`)
      for (const unit of await options.transcriptUnits(session, state.last_consolidated_at)) {
        units.push(unit)
        kinds.set(unit.id, unit.speaker === 'user' ? 'user' : 'assistant')
      }
    }
  }
  return { units, kinds }
}

async function readEditableFiles(brain: Brain) {
  const paths = [
    CORE_FILES.user,
    CORE_FILES.memory,
    CORE_FILES.changelog,
    'knowledge/1.user-archive.md',
    'knowledge/2.memory-archive.md',
  ]
  const taskNames = (await brain.files.list('state')).filter((name) => name.endsWith('.md'))
  const featureNames = (await brain.files.list('core/features')).filter((name) =>
    name.endsWith('.md'),
  )
  const read = async (path: string) => ({ path, text: await brain.files.read(path) })
  const [core, tasks, features] = await Promise.all([
    Promise.all(paths.map(read)),
    Promise.all(taskNames.map((name) => read(`state/${name}`))),
    Promise.all(featureNames.map((name) => read(`core/features/${name}`))),
  ])
  const present = (files: { path: string; text: string | null }[]) =>
    files.flatMap((file) => (file.text === null ? [] : [{ path: file.path, text: file.text }]))
  const texts = new Map<string, string | null>(core.map((file) => [file.path, file.text]))
  for (const file of [...tasks, ...features]) texts.set(file.path, file.text)
  return { texts, tasks: present(tasks), features: present(features) }
}
