/**
 * Somnus as a library. `createSomnus(options)` is the way in: it opens a brain (a project folder,
 * or memory) and returns every use case bound to it, as the CLI and hooks use them. The use-case
 * functions below take that `somnus.brain`; the model and transcript engine can be used directly.
 */

export { createExtractiveLanguageModel } from './adapters/llm/extractive-language-model.ts'
// The sleep ledger.
export { addBookmark } from './app/add-bookmark.ts'
export { addSleepDebt } from './app/add-sleep-debt.ts'
export { addTrigger } from './app/add-trigger.ts'
export type { Brain } from './app/brain.ts'
// Hook use cases and the snapshot.
export { buildSnapshot } from './app/build-snapshot.ts'
export { finishSleep } from './app/finish-sleep.ts'
export { getSleepHistory } from './app/get-sleep-history.ts'
export { getSleepStatus, type SleepStatus } from './app/get-sleep-status.ts'
export { recordStop, type StopEvent } from './app/record-stop.ts'
// Consolidation.
export { type RunSleepOptions, type RunSleepResult, runSleep } from './app/run-sleep.ts'
export { sessionStartContext } from './app/session-start.ts'
export { startSleep } from './app/start-sleep.ts'
export { summarizeText } from './app/summarize-text.ts'
// Types and errors.
export type { Config } from './core/config.ts'
export { consolidationDirective } from './core/directive.ts'
export { isSomnusError, SomnusError, type SomnusErrorCode } from './core/errors.ts'
export type {
  Group,
  Observation,
  Pattern,
  Priority,
  Reflection,
  Summary,
  Unit,
  Usage,
} from './core/model-results.ts'
export { scoringPolicyFor } from './core/scoring/scoring-policies.ts'
export {
  levelFor,
  type ScoringPolicy,
  type SessionMetrics,
  type SleepLevel,
} from './core/scoring/scoring-policy.ts'
export type {
  Bookmark,
  SessionRecord,
  SleepHistoryEntry,
  SleepState,
  Trigger,
} from './core/sleep-state.ts'
export { countTokens } from './core/tokens.ts'
export { distillTranscriptText } from './core/transcript/distill.ts'
export type { TranscriptAnalysis } from './core/transcript/transcript-analysis.ts'
export {
  analyzeTranscriptBytes,
  createTranscriptAnalyzer,
} from './core/transcript/transcript-analyzer.ts'
// The way in: a brain and its use cases; transcripts on disk.
export {
  createSomnus,
  locateBrain,
  type SessionEndEvent,
  type Somnus,
  type SomnusHooks,
  type SomnusInitOptions,
  type SomnusOptions,
  type SomnusSleepOptions,
  transcriptFiles,
} from './create-somnus.ts'
export type { LanguageModel, ModelCall } from './ports/language-model.ts'

// Plugging in your own model: any chat transport becomes a LanguageModel; every call takes a signal.

export {
  createPromptedLanguageModel,
  type PromptedLanguageModelOptions,
} from './adapters/llm/prompted-language-model.ts'
// Pattern learning (seed 002, docs/design/origins.md): encode sessions into domain patterns,
// crystallize them into skills.
export type { PatternEntry } from './core/patterns/pattern-entry.ts'
export type { ConsolidationRunResponse } from './core/service/consolidation-job.ts'
export type { Handoff, HandoffInput } from './core/service/handoff.ts'
// The consolidation service (seed 003): handoffs, jobs, workers and stats on PGlite or PostgreSQL.
export {
  createSomnusService,
  type SomnusService,
  type SomnusServiceOptions,
} from './create-somnus.ts'
export {
  createSomnusPatterns,
  type SomnusPatterns,
  type SomnusPatternsOptions,
} from './create-somnus-patterns.ts'
export type { ChatRequest, ChatResponse, ChatTransport } from './ports/chat-transport.ts'
export type { ModelRequestOptions } from './ports/language-model.ts'

// Creatures (seed 004): fatigue, voluntary sleep, dreams, observations, deep sleep, wake-up.

export type { MindContext } from './app/mind/mind-context.ts'
export type { MindStatus } from './app/mind/mind-status.ts'
export type { ActionInput, ActionResult } from './app/mind/record-action.ts'
export type { MessageInput } from './app/mind/record-message.ts'
export type { SleepRequest, SleepResult } from './app/mind/sleep-mind.ts'
export type { WakeResult } from './app/mind/wake-mind.ts'
export { parseConsolidation, renderConsolidation } from './core/mind/consolidation-format.ts'
export { MIND_DEFAULTS, type MindConfig } from './core/mind/mind-config.ts'
export type { ConversationEntry, DreamEntry } from './core/mind/mind-state.ts'
export type { RecallHit } from './core/mind/recall.ts'
export {
  createMind,
  type Mind,
  type MindOptions,
  openMindFolder,
  setSleepToolFor,
  sleepText,
  type ToolDefinition,
} from './create-mind.ts'
export { type Clock, fixedClock, systemClock } from './ports/clock.ts'
export type { ConsolidationModel, ConsolidationRequest } from './ports/consolidation-model.ts'
export type { MindFiles, MindStore } from './ports/mind-store.ts'
