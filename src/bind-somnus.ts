/**
 * The body of `createSomnus` (create-somnus.ts, which loads this file on first call): opens the
 * brain and binds the use cases to it. The ledger's use cases are imported here (small, and
 * what most commands call); documents, hooks, the sleep run, `init`, the memory stores and the
 * models load when first called.
 */

import { randomIds } from './adapters/node/random-ids.ts'
import { addBookmark } from './app/add-bookmark.ts'
import { addSleepDebt } from './app/add-sleep-debt.ts'
import { addTrigger } from './app/add-trigger.ts'
import type { Brain } from './app/brain.ts'
import { clearBookmarks } from './app/clear-bookmarks.ts'
import { finishSleep } from './app/finish-sleep.ts'
import { getSleepDebt } from './app/get-sleep-debt.ts'
import { getSleepHistory } from './app/get-sleep-history.ts'
import { getSleepStatus } from './app/get-sleep-status.ts'
import { listBookmarks } from './app/list-bookmarks.ts'
import { listTriggers } from './app/list-triggers.ts'
import { removeTrigger } from './app/remove-trigger.ts'
import { startSleep } from './app/start-sleep.ts'
import { composeTranscriptUnits, projectFilesOf } from './compose.ts'
import { composeReadDigest } from './compose-digests.ts'
import { analyzeSession as analyzeOnDisk } from './compose-transcripts.ts'
import { SomnusError } from './core/errors.ts'
import { openSomnusBrain, type SomnusOptions } from './open-somnus-brain.ts'
import { systemClock } from './ports/clock.ts'
import type { LanguageModel } from './ports/language-model.ts'
import type { Somnus } from './somnus.ts'

// The document use cases read and render markdown: loaded by the commands that use them only.
const snapshots = () => import('./app/build-snapshot.ts')
const knowledge = () => import('./app/manage-knowledge.ts')
const tasks = () => import('./app/manage-tasks.ts')
const projectRecord = () => import('./app/project-record.ts')

/** The brain `options` describe, with every use case bound to it. */
export async function bindSomnus(options: SomnusOptions): Promise<Somnus> {
  const inMemory =
    options.memory === true || (options.files !== undefined && options.state !== undefined)
  const brain = openSomnusBrain(
    inMemory ? { ...options, ...(await memoryStores(options)) } : options,
  )
  const analyzeSession = options.analyzeSession ?? analyzeOnDisk
  const env = options.env ?? process.env
  const languageModel = async (spec?: string): Promise<LanguageModel> => {
    if (spec === undefined && options.model) return options.model
    const { composeLanguageModel } = await import('./compose-model.ts')
    return composeLanguageModel(spec, { config: brain.config, env })
  }
  /**
   * Brings the recall index up to date after a sleep (only the files it changed are read): the
   * next prompt and `somnus recall` find what it consolidated at once. Never fails the sleep.
   */
  const indexForRecall = async (onProgress?: (message: string) => void) => {
    try {
      const { openBrainRecall } = await import('./compose-recall.ts')
      const started = Date.now()
      const reports = await openBrainRecall({
        root: brain.root,
        projectDir: brain.projectDir,
        env,
        warn: brain.warn,
        maxTranscriptBytes: brain.config.transcript_max_bytes,
      }).refresh()
      const files = Object.values(reports).reduce((sum, report) => sum + report.indexed, 0)
      onProgress?.(`indexed ${files} changed file(s) for recall in ${Date.now() - started} ms`)
    } catch (error) {
      brain.warn(`recall index not updated: ${(error as Error).message}`)
    }
  }
  const hooksOnDisk = async () =>
    (await import('./create-somnus-hooks.ts')).createSomnusHooks({
      ...options,
      contextDir: brain.root,
      env,
      warn: brain.warn,
    })
  return {
    brain,
    recordStop: async (event) =>
      (await import('./app/record-stop.ts')).recordStop(brain, analyzeSession, event),
    sessionStart: async () =>
      (await import('./app/session-start.ts')).sessionStartContext(brain, analyzeSession),
    promptReminder: async () => (await import('./app/prompt-reminder.ts')).reminderForPrompt(brain),
    promptRecall: async (event) => (inMemory ? null : (await hooksOnDisk()).promptRecall(event)),
    rememberShown: async (sessionId, text) => {
      if (!inMemory) await (await hooksOnDisk()).rememberShown(sessionId, text)
    },
    logCompaction: async (trigger) =>
      (await import('./app/record-compaction.ts')).logCompaction(brain, trigger),
    recordSessionEnd: async (event) =>
      (await import('./app/record-session-end.ts')).recordEnd(brain, analyzeSession, event),
    addBookmark: async (input) => addBookmark(brain, input),
    listBookmarks: async () => listBookmarks(brain),
    clearBookmarks: async () => clearBookmarks(brain),
    addTrigger: async (input) => addTrigger(brain, input),
    listTriggers: async () => listTriggers(brain),
    removeTrigger: async (id) => removeTrigger(brain, id),
    addSleepDebt: async (input) => addSleepDebt(brain, input),
    sleepDebt: async () => getSleepDebt(brain),
    sleepStatus: async () => getSleepStatus(brain),
    sleepHistory: async (limit) => getSleepHistory(brain, limit),
    startSleep: async () => startSleep(brain),
    finishSleep: async (summary) => finishSleep(brain, summary),
    snapshot: async (snapshotOptions) => (await snapshots()).buildSnapshot(brain, snapshotOptions),
    recordTriggerFires: async (ids) => (await snapshots()).recordTriggerFires(brain, ids),
    createKnowledge: async (input) => (await knowledge()).createKnowledge(brain, input),
    touchKnowledge: async (slug) => (await knowledge()).touchKnowledgeNote(brain, slug),
    listKnowledge: async () => (await knowledge()).listKnowledge(brain),
    createTask: async (input) => (await tasks()).createTask(brain, input),
    logTask: async (slug, message) => (await tasks()).logTask(brain, slug, message),
    completeTask: async (slug, summary) => (await tasks()).markTaskCompleted(brain, slug, summary),
    listTasks: async (listOptions) => (await tasks()).listTasks(brain, listOptions),
    addChangelog: async (input) => (await projectRecord()).addChangelog(brain, input),
    listFeatures: async () => (await projectRecord()).listFeatures(brain),
    languageModel,
    runSleep: async (sleep = {}) => {
      const model = typeof sleep.model === 'object' ? sleep.model : await languageModel(sleep.model)
      const { runSleep } = await import('./app/run-sleep.ts')
      const result = await runSleep(brain, {
        model,
        dryRun: sleep.dryRun === true,
        ...(sleep.transcripts === false
          ? {}
          : {
              transcriptUnits: composeTranscriptUnits(brain),
              readDigest: composeReadDigest(brain),
            }),
        ...(sleep.onProgress ? { onProgress: sleep.onProgress } : {}),
        signal: sleep.signal,
      })
      if (!inMemory && sleep.dryRun !== true) await indexForRecall(sleep.onProgress)
      return result
    },
    recall: async () => {
      if (inMemory) {
        throw new SomnusError(
          'USAGE',
          'Recall reads the brain on disk and its transcripts: open the brain from a folder, not in memory.',
        )
      }
      const { openBrainRecall } = await import('./compose-recall.ts')
      return openBrainRecall({
        root: brain.root,
        projectDir: brain.projectDir,
        env: options.env ?? process.env,
        warn: brain.warn,
        maxTranscriptBytes: brain.config.transcript_max_bytes,
      })
    },
    init: async (init) => {
      const { initBrain } = await import('./app/init-brain.ts')
      const projectFiles = options.projectFiles ?? (await defaultProjectFiles(brain, inMemory))
      return initBrain(brain, { ...init, projectFiles })
    },
  }
}

/** `.claude/settings.json` and its kin beside the brain: on disk, or in memory with the brain. */
async function defaultProjectFiles(brain: Brain, inMemory: boolean) {
  if (!inMemory) return projectFilesOf(brain)
  return (await import('./adapters/memory/memory-project-files.ts')).createMemoryProjectFiles()
}

/**
 * Fresh stores for a brain in memory, unless `options` brings its own, and a unit of work that
 * applies a consolidation to them at once.
 */
async function memoryStores(options: SomnusOptions) {
  const [{ createMemoryBrainFiles }, { createMemorySleepStateStore }, { createMemoryUnitOfWork }] =
    await Promise.all([
      import('./adapters/memory/memory-brain-files.ts'),
      import('./adapters/memory/memory-sleep-state-store.ts'),
      import('./adapters/memory/memory-unit-of-work.ts'),
    ])
  const files = options.files ?? createMemoryBrainFiles()
  const state = options.state ?? createMemorySleepStateStore()
  const unitOfWork =
    options.unitOfWork ??
    createMemoryUnitOfWork({
      files,
      state,
      clock: options.clock ?? systemClock,
      ids: options.ids ?? randomIds,
      warn: options.warn ?? ((message) => process.stderr.write(`somnus: ${message}\n`)),
    })
  return { files, state, unitOfWork }
}
