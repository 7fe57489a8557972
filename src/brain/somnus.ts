/**
 * What `createSomnus` returns: every brain use case bound to one brain (the hook use cases, and
 * the map of brain-use-cases.ts with the same names), and the options of the two that take more
 * than the brain (`runSleep`, `init`). Types only, so bind-somnus.ts, which builds
 * it, and create-somnus.ts, which loads bind-somnus.ts, both depend on this file, not on each other.
 */

import type { LanguageModel } from '../engine/ports/language-model.ts'
import type { Brain } from './app/brain.ts'
import type { brainUseCases } from './brain-use-cases.ts'
import type { SomnusHooks } from './create-somnus-hooks.ts'

/** A use case `(brain, ...rest)` with its brain already given. */
type BoundUseCase<F> = F extends (brain: Brain, ...rest: infer Rest) => infer Out
  ? (...rest: Rest) => Promise<Awaited<Out>>
  : never

/** A map of use-case loaders (brain-use-cases.ts) as methods: each use case by its name, bound. */
export type Bound<Loaders> = {
  [Name in keyof Loaders]: Loaders[Name] extends () => Promise<infer UseCase>
    ? BoundUseCase<UseCase>
    : never
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
export interface Somnus extends SomnusHooks, Bound<typeof brainUseCases> {
  /** Consolidates now: the whole `somnus sleep run`. */
  runSleep(options?: SomnusSleepOptions): Promise<import('./app/run-sleep.ts').RunSleepResult>
  /** Creates what is missing of the brain and wires the hooks into the project's settings. */
  init(options: SomnusInitOptions): Promise<import('./app/init-brain.ts').InitBrainResult>
  /** The model `spec` names, or `options.model`, or the one the settings name. */
  languageModel(spec?: string): Promise<LanguageModel>
  /** Recall over this brain's files and the project's transcripts (a brain on disk only). */
  recall(): Promise<import('./compose-recall.ts').BrainRecall>
}
