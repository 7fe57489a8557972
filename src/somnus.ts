/**
 * What `createSomnus` returns: every brain use case bound to one brain, and the options of the two
 * that take more than the brain (`runSleep`, `init`). Types only, so bind-somnus.ts, which builds
 * it, and create-somnus.ts, which loads bind-somnus.ts, both depend on this file, not on each other.
 */
import type { Brain } from './app/brain.ts'
import type { SomnusHooks } from './create-somnus-hooks.ts'
import type { LanguageModel } from './ports/language-model.ts'

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
