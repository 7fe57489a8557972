/**
 * `createSomnus(options)`: the one way into the engine, for the CLI, `somnus demo` and the library
 * (the hooks take its hook-sized half, create-somnus-hooks.ts). It opens one brain, on disk or in
 * memory, and returns every use case bound to it. Everything is imported when first needed, so a
 * command pays only for what it runs (`transcript stats <path>` opens no brain and loads no
 * settings) and the model code loads only for a sleep.
 */
import type { SomnusOptions } from './open-somnus-brain.ts'
import type { Somnus } from './somnus.ts'

export { recordInstall } from '../engine/adapters/fs/user-settings.ts'
export { somnusPackageRoot } from '../engine/adapters/node/package-root.ts'
// The service has its own entry (somnus/service); the CLI and library reach it from here too.
export {
  createSomnusService,
  defaultServiceDataDir,
  type SomnusService,
  type SomnusServiceOptions,
} from '../service/index.ts'
// `somnus handoffs push` reads the digests of the brain it opened: one small function.
export { readDigestDocuments } from './app/read-digest-documents.ts'
export type { BrainRecall, MemoryHit } from './compose-recall.ts'
export { transcriptFiles } from './compose-transcripts.ts'
export type { SessionEndEvent, SomnusHooks } from './create-somnus-hooks.ts'
export { locateBrain } from './locate-brain.ts'
export type { SomnusOptions } from './open-somnus-brain.ts'
export type { Somnus, SomnusInitOptions, SomnusSleepOptions } from './somnus.ts'

/**
 * Opens the brain `options` describe (default: the `_agent_context/` found from the current
 * folder) and returns every use case bound to it. `{ memory: true }` keeps it all in memory.
 */
export async function createSomnus(options: SomnusOptions = {}): Promise<Somnus> {
  // One import for the brain and its everyday use cases: a command loads a few modules, not a
  // chunk per use case, and `transcript stats <path>`, which only imports this file, none.
  return (await import('./bind-somnus.ts')).bindSomnus(options)
}

export type {
  SleepRecord,
  SleepRecordReader,
  SleepRecordSummary,
} from './adapters/fs/sleep-record-file.ts'

/**
 * What each `sleep run` changed in the brain at `root` (its `_agent_context` folder), by run id:
 * the diffs `state/.sleeps/` keeps for the dashboard. Read-only.
 */
export async function openSleepRecords(
  root: string,
): Promise<import('./adapters/fs/sleep-record-file.ts').SleepRecordReader> {
  const [records, paths] = await Promise.all([
    import('./adapters/fs/sleep-record-file.ts'),
    import('./adapters/fs/fs-brain-paths.ts'),
  ])
  return records.sleepRecordReader(paths.createFsBrainPaths(root))
}
