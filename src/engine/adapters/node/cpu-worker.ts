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

/** The answer: the task's value, or its error's message; `ready` once, when the module has loaded. */
export type CpuAnswer =
  | { id: number; value: unknown }
  | { id: number; error: string }
  | { ready: true }

parentPort?.on('message', (request: CpuRequest) => {
  try {
    const run = CPU_TASKS[request.task] as (...args: unknown[]) => unknown
    parentPort?.postMessage({ id: request.id, value: run(...request.args) })
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: String(error) })
  }
})
// The pool tells a thread that cannot start (answered on the calling thread from then on) from
// one that stopped later (replaced by a new one).
parentPort?.postMessage({ ready: true })
