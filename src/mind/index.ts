/**
 * Creatures (seed 004, docs/design/origins.md) as a library: `somnus/mind`. A mind tires, sleeps
 * when it chooses, dreams, keeps observations, sleeps deeply and wakes with a summary.
 */
export type { MindContext } from './app/mind-context.ts'
export { ConversationEntrySchema, DreamEntrySchema } from './app/mind-records.ts'
export type { MindStatus } from './app/mind-status.ts'
export type { ActionInput, ActionResult } from './app/record-action.ts'
export type { MessageInput } from './app/record-message.ts'
export type { SleepRequest, SleepResult } from './app/sleep-mind.ts'
export type { WakeResult } from './app/wake-mind.ts'
export { parseConsolidation, renderConsolidation } from './core/consolidation-format.ts'
export { MIND_DEFAULTS, type MindConfig } from './core/mind-config.ts'
export type { ConversationEntry, DreamEntry } from './core/mind-state.ts'
export type { RecallHit } from './core/recall.ts'
export {
  createMind,
  type Mind,
  type MindOptions,
  openMindFolder,
  setSleepToolFor,
  sleepText,
  type ToolDefinition,
} from './create-mind.ts'
export type { ConsolidationModel, ConsolidationRequest } from './ports/consolidation-model.ts'
export type { MindFiles, MindStore } from './ports/mind-store.ts'
