/**
 * The tasks the service's CPU pool runs, on its worker threads (cpu-worker.ts) and, when no thread
 * can start, on the calling one: the engine's (the extractive model), the stored form of a big
 * handoff, and the consolidation of the minds the server hosts, which `somnus serve` hands this
 * pool (surfaces/http/tenant-minds.ts).
 */
import { ENGINE_CPU_TASKS } from '../engine/core/cpu-tasks.ts'
import { extractiveConsolidation } from '../mind/core/extractive-consolidation.ts'
import { handoffRecord } from './core/handoff-record.ts'

/** Every task of the service's pool, by name. */
export const SERVICE_CPU_TASKS = { ...ENGINE_CPU_TASKS, handoffRecord, extractiveConsolidation }
