/**
 * The pure CPU work that may run on a worker thread, by name: a worker runs the tasks of the
 * table it was started with and nothing else, and a pool without threads runs the same functions
 * on its caller's thread. The engine names its own tasks here; a system adds its tasks to
 * `CpuTasks` where it defines them (`declare module`), and the composition that starts a pool
 * hands it, and its worker file, the table of what it runs (service/service-cpu-tasks.ts).
 */

import { groupSimilar } from './extractive/grouping.ts'
import { summarizeLevels } from './extractive/summarize.ts'

/** The engine's tasks, by name: what the extractive model runs on its own pool. */
export const ENGINE_CPU_TASKS = { summarizeLevels, groupSimilar }

/**
 * Every task, by name: the engine's, and those systems add. Arguments and results must survive
 * structured cloning (plain data).
 */
export interface CpuTasks {
  summarizeLevels: typeof summarizeLevels
  groupSimilar: typeof groupSimilar
}

/** A task's name. */
export type CpuTaskName = keyof CpuTasks

/** The tasks one pool or worker thread runs: some of `CpuTasks`. */
export type CpuTaskTable = Partial<CpuTasks>
