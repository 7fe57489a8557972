/**
 * What a worker thread of the CPU pool (cpu-thread-pool.ts) does: runs one task of its table per
 * message and answers with its value. No state but the tasks' own caches.
 */
import { parentPort } from 'node:worker_threads'
import type { CpuTaskName, CpuTaskTable } from '../../core/cpu-tasks.ts'

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

/** Runs `request` with `tasks`; a task the table does not hold is an error. */
export function runCpuTask(tasks: CpuTaskTable, request: CpuRequest): unknown {
  const run = tasks[request.task] as ((...args: unknown[]) => unknown) | undefined
  if (run === undefined) throw new Error(`This CPU pool has no task named ${request.task}.`)
  return run(...request.args)
}

/** Answers the pool's requests on this worker thread with `tasks`. */
export function serveCpuTasks(tasks: CpuTaskTable): void {
  parentPort?.on('message', (request: CpuRequest) => {
    try {
      parentPort?.postMessage({ id: request.id, value: runCpuTask(tasks, request) })
    } catch (error) {
      parentPort?.postMessage({ id: request.id, error: String(error) })
    }
  })
  // The pool tells a thread that cannot start (answered on the calling thread from then on) from
  // one that stopped later (replaced by a new one).
  parentPort?.postMessage({ ready: true })
}
