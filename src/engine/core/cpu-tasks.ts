/**
 * The pure CPU work that may run on a worker thread, by name: a worker runs these and nothing
 * else, and a pool without threads runs the same functions on its caller's thread.
 */

import { extractiveConsolidation } from '../../mind/core/extractive-consolidation.ts'
import { handoffRecord } from '../../service/core/handoff-record.ts'
import { groupSimilar } from './extractive/grouping.ts'
import { summarizeLevels } from './extractive/summarize.ts'

/** Every task, by name. Arguments and results must survive structured cloning (plain data). */
export const CPU_TASKS = { summarizeLevels, groupSimilar, handoffRecord, extractiveConsolidation }

/** The tasks' table type. */
export type CpuTasks = typeof CPU_TASKS

/** A task's name. */
export type CpuTaskName = keyof CpuTasks
