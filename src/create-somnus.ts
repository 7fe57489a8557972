/**
 * `createSomnus(options)`: the one way into the engine, for the CLI, `somnus demo` and the library
 * (the hooks take its hook-sized half, create-somnus-hooks.ts). It opens one brain, on disk or in
 * memory, and returns every use case bound to it. Everything is imported when first needed, so a
 * command pays only for what it runs (`transcript stats <path>` opens no brain and loads no
 * settings) and the model code loads only for a sleep.
 */
import type { Brain } from './app/brain.ts'
import type { SomnusHooks } from './create-somnus-hooks.ts'
import type { SomnusOptions } from './open-somnus-brain.ts'
import type { LanguageModel } from './ports/language-model.ts'

export { recordInstall } from './adapters/fs/user-settings.ts'
export type { BrainRecall, MemoryHit } from './compose-recall.ts'
export type { SomnusService, SomnusServiceOptions } from './compose-service.ts'
export { transcriptFiles } from './compose-transcripts.ts'
export type { SessionEndEvent, SomnusHooks } from './create-somnus-hooks.ts'
export { locateBrain } from './locate-brain.ts'
export type { SomnusOptions } from './open-somnus-brain.ts'

/** A use case `(brain, ...rest)` with its brain already given. */
type Bound<F> = F extends (brain: Brain, ...rest: infer Rest) => infer Out
  ? (...rest: Rest) => Promise<Awaited<Out>>
  : never

type App = {
  addBookmark: typeof import('./app/add-bookmark.ts').addBookmark
  listBookmarks: typeof import('./app/list-bookmarks.ts').listBookmarks
  clearBookmarks: typeof import('./app/clear-bookmarks.ts').clearBookmarks
  addTrigger: typeof import('./app/add-trigger.ts').addTrigger
  listTriggers: typeof import('./app/list-triggers.ts').listTriggers
  removeTrigger: typeof import('./app/remove-trigger.ts').removeTrigger
  addSleepDebt: typeof import('./app/add-sleep-debt.ts').addSleepDebt
  getSleepDebt: typeof import('./app/get-sleep-debt.ts').getSleepDebt
  getSleepStatus: typeof import('./app/get-sleep-status.ts').getSleepStatus
  getSleepHistory: typeof import('./app/get-sleep-history.ts').getSleepHistory
  startSleep: typeof import('./app/start-sleep.ts').startSleep
  finishSleep: typeof import('./app/finish-sleep.ts').finishSleep
  buildSnapshot: typeof import('./app/build-snapshot.ts').buildSnapshot
  recordTriggerFires: typeof import('./app/build-snapshot.ts').recordTriggerFires
  createKnowledge: typeof import('./app/manage-knowledge.ts').createKnowledge
  touchKnowledgeNote: typeof import('./app/manage-knowledge.ts').touchKnowledgeNote
  listKnowledge: typeof import('./app/manage-knowledge.ts').listKnowledge
  createTask: typeof import('./app/manage-tasks.ts').createTask
  logTask: typeof import('./app/manage-tasks.ts').logTask
  markTaskCompleted: typeof import('./app/manage-tasks.ts').markTaskCompleted
  listTasks: typeof import('./app/manage-tasks.ts').listTasks
  addChangelog: typeof import('./app/project-record.ts').addChangelog
  listFeatures: typeof import('./app/project-record.ts').listFeatures
}

/** How one `runSleep` call differs from the defaults. */
export interface SomnusSleepOptions {
  /** A model, or a spec (`extractive`, `anthropic:<model>`...); default: `options.model`, then settings. */
  model?: LanguageModel | string
  /** Plan and return the changes without making them. */
  dryRun?: boolean
  /** Read session transcripts too, not just summaries and bookmarks (default true). */
  transcripts?: boolean
  /** Called with a line for each step worth telling a person about. */
  onProgress?: (message: string) => void
  /** Cancels the run: it then rejects with ABORTED and changes nothing. */
  signal?: AbortSignal | undefined
}

/** What `init` needs beyond the brain: the templates and how the hooks are run. */
export interface SomnusInitOptions {
  /** Every template file by its path inside `_agent_context`. */
  templates: Record<string, string>
  /** The command wired for each hook event; null writes no hooks. */
  hookCommand: ((event: import('./core/claude-settings.ts').SomnusHookEvent) => string) | null
  /** The plugin's agent and skill to install into `.claude/`, and the command they run; null: none. */
  claudeFiles?: import('./app/init-brain.ts').ClaudeFilesInput | null
  /** How Claude Code starts `somnus mcp`, for the project's `.mcp.json`; null: none. */
  mcpServer?: import('./core/mcp-config.ts').McpServerCommand | null
}

/** Every use case, bound to one brain. */
export interface Somnus extends SomnusHooks {
  addBookmark: Bound<App['addBookmark']>
  listBookmarks: Bound<App['listBookmarks']>
  clearBookmarks: Bound<App['clearBookmarks']>
  addTrigger: Bound<App['addTrigger']>
  listTriggers: Bound<App['listTriggers']>
  removeTrigger: Bound<App['removeTrigger']>
  addSleepDebt: Bound<App['addSleepDebt']>
  sleepDebt: Bound<App['getSleepDebt']>
  sleepStatus: Bound<App['getSleepStatus']>
  sleepHistory: Bound<App['getSleepHistory']>
  startSleep: Bound<App['startSleep']>
  finishSleep: Bound<App['finishSleep']>
  snapshot: Bound<App['buildSnapshot']>
  recordTriggerFires: Bound<App['recordTriggerFires']>
  createKnowledge: Bound<App['createKnowledge']>
  touchKnowledge: Bound<App['touchKnowledgeNote']>
  listKnowledge: Bound<App['listKnowledge']>
  createTask: Bound<App['createTask']>
  logTask: Bound<App['logTask']>
  completeTask: Bound<App['markTaskCompleted']>
  listTasks: Bound<App['listTasks']>
  addChangelog: Bound<App['addChangelog']>
  listFeatures: Bound<App['listFeatures']>
  /** Consolidates now: the whole `somnus sleep run`. */
  runSleep(options?: SomnusSleepOptions): Promise<import('./app/run-sleep.ts').RunSleepResult>
  /** Creates what is missing of the brain and wires the hooks into the project's settings. */
  init(options: SomnusInitOptions): Promise<import('./app/init-brain.ts').InitBrainResult>
  /** The model `spec` names, or `options.model`, or the one the settings name. */
  languageModel(spec?: string): Promise<LanguageModel>
  /** Recall over this brain's files and the project's transcripts (a brain on disk only). */
  recall(): Promise<import('./compose-recall.ts').BrainRecall>
}

/**
 * Opens the brain `options` describe (default: the `_agent_context/` found from the current
 * folder) and returns every use case bound to it. `{ memory: true }` keeps it all in memory.
 */
export async function createSomnus(options: SomnusOptions = {}): Promise<Somnus> {
  // One import for the brain and its everyday use cases: a command loads a few modules, not a
  // chunk per use case, and `transcript stats <path>`, which only imports this file, none.
  return (await import('./bind-somnus.ts')).bindSomnus(options)
}

/**
 * Opens the multi-tenant consolidation service (seed 003, docs/design/origins.md) on its SQL
 * database: embedded PGlite by default, PostgreSQL for `postgres://` URLs. Loaded only when called,
 * so no hook or brain command ever loads SQL code.
 */
export async function createSomnusService(
  options: import('./compose-service.ts').SomnusServiceOptions = {},
): Promise<import('./compose-service.ts').SomnusService> {
  return (await import('./compose-service.ts')).composeSomnusService(options)
}

/** Where the service keeps its embedded database unless told otherwise. */
export async function defaultServiceDataDir(
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  return (await import('./compose-service.ts')).defaultServiceDataDir(env)
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
