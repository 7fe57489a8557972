/**
 * The brain as a library: `createSomnus(options)` opens a brain (a project's `_agent_context/`,
 * or memory) and returns every use case bound to it, as the CLI and hooks use them; the use-case
 * functions below take that `somnus.brain`. The package root, `somnus`, exports this and the
 * other systems' entries.
 */

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
export type { InitBrainResult } from './app/init-brain.ts'
export { recordStop, type StopEvent } from './app/record-stop.ts'
// Consolidation.
export { type RunSleepOptions, type RunSleepResult, runSleep } from './app/run-sleep.ts'
export { sessionStartContext } from './app/session-start.ts'
export { startSleep } from './app/start-sleep.ts'
export { summarizeText } from './app/summarize-text.ts'
export { consolidationDirective } from './core/directive.ts'
export { scoringPolicyFor } from './core/scoring/scoring-policies.ts'
export type {
  Bookmark,
  SessionRecord,
  SleepHistoryEntry,
  SleepState,
  Trigger,
} from './core/sleep-state.ts'
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
