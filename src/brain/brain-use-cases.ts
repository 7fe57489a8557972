/**
 * The brain's use cases that take only the brain and their input, by their own names: the one
 * list `createSomnus` binds (bind-somnus.ts) and its `Somnus` type is derived from (somnus.ts).
 * The hook use cases are bound apart, once, by create-somnus-hooks.ts; `runSleep`, `init`,
 * `languageModel` and `recall` take more than the brain and are bound in bind-somnus.ts.
 */

import { addBookmark } from './app/add-bookmark.ts'
import { addSleepDebt } from './app/add-sleep-debt.ts'
import { addTrigger } from './app/add-trigger.ts'
import type { Brain } from './app/brain.ts'
import { clearBookmarks } from './app/clear-bookmarks.ts'
import { finishSleep } from './app/finish-sleep.ts'
import { getSleepDebt } from './app/get-sleep-debt.ts'
import { getSleepHistory } from './app/get-sleep-history.ts'
import { getSleepStatus } from './app/get-sleep-status.ts'
import { listBookmarks } from './app/list-bookmarks.ts'
import { listTriggers } from './app/list-triggers.ts'
import { removeTrigger } from './app/remove-trigger.ts'
import { startSleep } from './app/start-sleep.ts'

// The document use cases read and render markdown: loaded by the commands that use them only.
const snapshots = () => import('./app/build-snapshot.ts')
const knowledge = () => import('./app/manage-knowledge.ts')
const tasks = () => import('./app/manage-tasks.ts')
const projectRecord = () => import('./app/project-record.ts')

/**
 * Each use case `(brain, ...input)` by its function's name, with the loader that gives it. The
 * ledger's use cases are imported above (small, and what most commands call); the document ones
 * load when first called.
 */
export const brainUseCases = {
  addBookmark: async () => addBookmark,
  listBookmarks: async () => listBookmarks,
  clearBookmarks: async () => clearBookmarks,
  addTrigger: async () => addTrigger,
  listTriggers: async () => listTriggers,
  removeTrigger: async () => removeTrigger,
  addSleepDebt: async () => addSleepDebt,
  getSleepDebt: async () => getSleepDebt,
  getSleepStatus: async () => getSleepStatus,
  getSleepHistory: async () => getSleepHistory,
  startSleep: async () => startSleep,
  finishSleep: async () => finishSleep,
  buildSnapshot: async () => (await snapshots()).buildSnapshot,
  recordTriggerFires: async () => (await snapshots()).recordTriggerFires,
  createKnowledge: async () => (await knowledge()).createKnowledge,
  touchKnowledgeNote: async () => (await knowledge()).touchKnowledgeNote,
  listKnowledge: async () => (await knowledge()).listKnowledge,
  createTask: async () => (await tasks()).createTask,
  logTask: async () => (await tasks()).logTask,
  markTaskCompleted: async () => (await tasks()).markTaskCompleted,
  listTasks: async () => (await tasks()).listTasks,
  addChangelog: async () => (await projectRecord()).addChangelog,
  listFeatures: async () => (await projectRecord()).listFeatures,
} satisfies Record<string, () => Promise<(brain: Brain, ...input: never[]) => unknown>>
