/**
 * A worker thread of the CPU pool (cpu-thread-pool.ts): runs one of core's CPU tasks per message
 * and answers with its value. No state but the tasks' own caches.
 */
import { parentPort } from 'node:worker_threads'
import { CPU_TASKS, type CpuTaskName } from '../../core/cpu-tasks.ts'

/** One request: a task by name and its arguments. */
export interface CpuRequest {
  id: number
  task: CpuTaskName
  args: unknown[]
}

/** The answer: the task's value, or its error's message. */
export type CpuAnswer = { id: number; value: unknown } | { id: number; error: string }

parentPort?.on('message', (request: CpuRequest) => {
  try {
    const run = CPU_TASKS[request.task] as (...args: unknown[]) => unknown
    parentPort?.postMessage({ id: request.id, value: run(...request.args) })
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: String(error) })
  }
})
