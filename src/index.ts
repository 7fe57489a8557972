/**
 * Somnus as a library. `createSomnus(options)` is the way in: it opens a brain (a project folder,
 * or memory) and returns every use case bound to it, as the CLI and hooks use them. The use-case
 * functions below take that `somnus.brain`; the model and transcript engine can be used directly.
 */

// The sleep ledger.
export { addBookmark } from './brain/app/add-bookmark.ts'
export { addSleepDebt } from './brain/app/add-sleep-debt.ts'
export { addTrigger } from './brain/app/add-trigger.ts'
export type { Brain } from './brain/app/brain.ts'
// Hook use cases and the snapshot.
export { buildSnapshot } from './brain/app/build-snapshot.ts'
export { finishSleep } from './brain/app/finish-sleep.ts'
export { getSleepHistory } from './brain/app/get-sleep-history.ts'
export { getSleepStatus, type SleepStatus } from './brain/app/get-sleep-status.ts'
export { recordStop, type StopEvent } from './brain/app/record-stop.ts'
// Consolidation.
export { type RunSleepOptions, type RunSleepResult, runSleep } from './brain/app/run-sleep.ts'
export { sessionStartContext } from './brain/app/session-start.ts'
export { startSleep } from './brain/app/start-sleep.ts'
export { summarizeText } from './brain/app/summarize-text.ts'
export { consolidationDirective } from './brain/core/directive.ts'
export { scoringPolicyFor } from './brain/core/scoring/scoring-policies.ts'
export type {
  Bookmark,
  SessionRecord,
  SleepHistoryEntry,
  SleepState,
  Trigger,
} from './brain/core/sleep-state.ts'
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
} from './brain/create-somnus.ts'
export { createExtractiveLanguageModel } from './engine/adapters/llm/extractive-language-model.ts'
// Types and errors.
export type { Config } from './engine/core/config.ts'
export { isSomnusError, SomnusError, type SomnusErrorCode } from './engine/core/errors.ts'
export type {
  Group,
  Observation,
  Pattern,
  Priority,
  Reflection,
  Summary,
  Unit,
  Usage,
} from './engine/core/model-results.ts'
export {
  levelFor,
  type ScoringPolicy,
  type SessionMetrics,
  type SleepLevel,
} from './engine/core/scoring/scoring-policy.ts'
export { countTokens } from './engine/core/tokens.ts'
export { distillTranscriptText } from './engine/core/transcript/distill.ts'
export type { TranscriptAnalysis } from './engine/core/transcript/transcript-analysis.ts'
export {
  analyzeTranscriptBytes,
  createTranscriptAnalyzer,
} from './engine/core/transcript/transcript-analyzer.ts'
export type { LanguageModel, ModelCall } from './engine/ports/language-model.ts'

// Plugging in your own model: any chat transport becomes a LanguageModel; every call takes a signal.

// The consolidation service (seed 003): handoffs, jobs, workers and stats on PGlite or PostgreSQL.
export {
  createSomnusService,
  type SomnusService,
  type SomnusServiceOptions,
} from './brain/create-somnus.ts'
export {
  createPromptedLanguageModel,
  type PromptedLanguageModelOptions,
} from './engine/adapters/llm/prompted-language-model.ts'
export type { ChatRequest, ChatResponse, ChatTransport } from './engine/ports/chat-transport.ts'
export type { ModelRequestOptions } from './engine/ports/language-model.ts'
// Pattern learning (seed 002, docs/design/origins.md): encode sessions into domain patterns,
// crystallize them into skills.
export type { PatternEntry } from './patterns/core/pattern-entry.ts'
export {
  createSomnusPatterns,
  type SomnusPatterns,
  type SomnusPatternsOptions,
} from './patterns/create-somnus-patterns.ts'
export type { ConsolidationRunResponse } from './service/core/consolidation-job.ts'
export type { Handoff, HandoffInput } from './service/core/handoff.ts'

// Creatures (seed 004): fatigue, voluntary sleep, dreams, observations, deep sleep, wake-up.

export { type Clock, fixedClock, systemClock } from './engine/ports/clock.ts'
export type { MindContext } from './mind/app/mind-context.ts'
export type { MindStatus } from './mind/app/mind-status.ts'
export type { ActionInput, ActionResult } from './mind/app/record-action.ts'
export type { MessageInput } from './mind/app/record-message.ts'
export type { SleepRequest, SleepResult } from './mind/app/sleep-mind.ts'
export type { WakeResult } from './mind/app/wake-mind.ts'
export { parseConsolidation, renderConsolidation } from './mind/core/consolidation-format.ts'
export { MIND_DEFAULTS, type MindConfig } from './mind/core/mind-config.ts'
export type { ConversationEntry, DreamEntry } from './mind/core/mind-state.ts'
export type { RecallHit } from './mind/core/recall.ts'
export {
  createMind,
  type Mind,
  type MindOptions,
  openMindFolder,
  setSleepToolFor,
  sleepText,
  type ToolDefinition,
} from './mind/create-mind.ts'
export type { ConsolidationModel, ConsolidationRequest } from './mind/ports/consolidation-model.ts'
export type { MindFiles, MindStore } from './mind/ports/mind-store.ts'
