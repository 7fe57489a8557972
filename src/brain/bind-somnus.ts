/**
 * The body of `createSomnus` (create-somnus.ts, which loads this file on first call): opens the
 * brain and binds the use cases to it: the map of brain-use-cases.ts by its names, and the hook
 * use cases as create-somnus-hooks.ts binds them (loaded when first called). Documents, hooks,
 * the sleep run, `init`, the memory stores and the models load when first called.
 */

import { randomIds } from '../engine/adapters/node/random-ids.ts'
import { SomnusError } from '../engine/core/errors.ts'
import { systemClock } from '../engine/ports/clock.ts'
import type { LanguageModel } from '../engine/ports/language-model.ts'
import type { Brain } from './app/brain.ts'
import { brainUseCases } from './brain-use-cases.ts'
import { composeTranscriptUnits, projectFilesOf } from './compose.ts'
import { composeReadDigest } from './compose-digests.ts'
import type { SomnusHooks } from './create-somnus-hooks.ts'
import { openSomnusBrain, type SomnusOptions } from './open-somnus-brain.ts'
import type { Bound, Somnus } from './somnus.ts'

/** The brain `options` describe, with every use case bound to it. */
export async function bindSomnus(options: SomnusOptions): Promise<Somnus> {
  const inMemory =
    options.memory === true || (options.files !== undefined && options.state !== undefined)
  const brain = openSomnusBrain(
    inMemory ? { ...options, ...(await memoryStores(options)) } : options,
  )
  const env = options.env ?? process.env
  const languageModel = async (spec?: string): Promise<LanguageModel> => {
    if (spec === undefined && options.model) return options.model
    const { composeLanguageModel } = await import('../engine/compose-model.ts')
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
  // Bound once, when a hook use case is first called: the brain's, not a second one opened.
  let hooks: Promise<SomnusHooks> | undefined
  const hooksBound = () =>
    (hooks ??= import('./create-somnus-hooks.ts').then(({ bindSomnusHooks }) =>
      bindSomnusHooks(brain, { ...options, env }),
    ))
  return {
    brain,
    ...bindUseCases(brain, brainUseCases),
    recordStop: async (event) => (await hooksBound()).recordStop(event),
    sessionStart: async (startOptions) => (await hooksBound()).sessionStart(startOptions),
    promptReminder: async () => (await hooksBound()).promptReminder(),
    promptRecall: async (event) => (await hooksBound()).promptRecall(event),
    rememberShown: async (sessionId, text) => (await hooksBound()).rememberShown(sessionId, text),
    logCompaction: async (trigger) => (await hooksBound()).logCompaction(trigger),
    recordSessionEnd: async (event) => (await hooksBound()).recordSessionEnd(event),
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

/** Each use case of `loaders` as a method of the same name, given `brain` and loaded when first called. */
function bindUseCases<Loaders extends Record<string, () => Promise<unknown>>>(
  brain: Brain,
  loaders: Loaders,
): Bound<Loaders> {
  const bound = Object.entries(loaders).map(([name, load]) => [
    name,
    async (...input: unknown[]) =>
      ((await load()) as (brain: Brain, ...input: unknown[]) => unknown)(brain, ...input),
  ])
  return Object.fromEntries(bound) as Bound<Loaders>
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
