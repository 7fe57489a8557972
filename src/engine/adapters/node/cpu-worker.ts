/**
 * The engine's worker thread for the CPU pool (cpu-thread-pool.ts): runs the engine's own tasks,
 * as the extractive model's pool asks. A composition with more tasks starts its own worker file
 * (service/cpu-worker.ts).
 */
import { ENGINE_CPU_TASKS } from '../../core/cpu-tasks.ts'
import { serveCpuTasks } from './serve-cpu-tasks.ts'

serveCpuTasks(ENGINE_CPU_TASKS)
