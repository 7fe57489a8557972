/**
 * The engine every system runs on, as a library: `somnus/engine`. Transcripts read and distilled,
 * tokens counted, the extractive model and any chat transport as a `LanguageModel`, the errors
 * every system throws, the clock.
 */
export { createExtractiveLanguageModel } from './adapters/llm/extractive-language-model.ts'
export {
  createPromptedLanguageModel,
  type PromptedLanguageModelOptions,
} from './adapters/llm/prompted-language-model.ts'
export type { Config } from './core/config.ts'
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
export {
  levelFor,
  type ScoringPolicy,
  type SessionMetrics,
  type SleepLevel,
} from './core/scoring/scoring-policy.ts'
export { countTokens } from './core/tokens.ts'
export { distillTranscriptText } from './core/transcript/distill.ts'
export type { TranscriptAnalysis } from './core/transcript/transcript-analysis.ts'
export {
  analyzeTranscriptBytes,
  createTranscriptAnalyzer,
} from './core/transcript/transcript-analyzer.ts'
export type { ChatRequest, ChatResponse, ChatTransport } from './ports/chat-transport.ts'
export { type Clock, fixedClock, systemClock } from './ports/clock.ts'
export type { LanguageModel, ModelCall, ModelRequestOptions } from './ports/language-model.ts'
