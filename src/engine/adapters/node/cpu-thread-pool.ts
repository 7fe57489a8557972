/**
 * Worker threads for core's CPU tasks (engine/core/cpu-tasks.ts): summaries, grouping, the stored form
 * of a big handoff. The thread that serves requests only hands work over and gets answers back,
 * so `/health` and every other tenant are answered while a 1 MB body is counted. Each thread runs
 * one task at a time, handed out by fair lanes (engine/core/fair-lanes.ts): tenants take turns, each
 * within its limit. When no thread can start (a runtime without the worker file) the work is
 * done on the calling thread, so a call never fails for want of a thread; a thread that stops
 * after it started is replaced, and the task it ran fails rather than falling back onto the
 * calling thread (it may be what stopped it).
 */
import { Worker } from 'node:worker_threads'
import { type CpuTaskName, type CpuTaskTable, ENGINE_CPU_TASKS } from '../../core/cpu-tasks.ts'
import { SomnusError } from '../../core/errors.ts'
import { fairLanes, type LaneLimits } from '../../core/fair-lanes.ts'
import type { CpuWork } from '../../ports/cpu-work.ts'
import { type CpuAnswer, type CpuRequest, runCpuTask } from './serve-cpu-tasks.ts'

/** How to run the pool. */
export interface CpuThreadPoolOptions {
  threads: number
  /** Each lane's limits (default: one running, 8 waiting). */
  limits?: (lane: string) => LaneLimits
  /** Tasks waiting in all lanes together, at most (default 256). */
  maxWaiting?: number
  /**
   * The tasks the pool runs (default: the engine's), which its worker module must run too: both
   * come from one composition (service/service-cpu-tasks.ts and service/cpu-worker.ts).
   */
  tasks?: CpuTaskTable
  /** The worker module (default: cpu-worker beside this file, which runs the engine's tasks). */
  workerUrl?: URL
}

/** A pool, with what it did for tests and benchmarks. */
export interface CpuThreadPool extends CpuWork {
  readonly threads: number
  /** Tasks run on the calling thread because no worker could take them (0 when all is well). */
  readonly fallbacks: number
}

interface Task {
  request: CpuRequest
  resolve: (value: unknown) => void
  reject: (error: Error) => void
}

interface Thread {
  worker: Worker
  /** The task it runs, with its lane; null when idle. */
  current: { lane: string; task: Task } | null
  /** True once its module has loaded (it said `ready`). */
  ready: boolean
}

/**
 * The worker module `cpu-worker` beside the module at `moduleUrl`: `.ts` when run from source
 * (tsx), `.js` when built. In the CLI bundle every module's URL is the bundle's, so each pool
 * finds dist/cli/cpu-worker.js (scripts/bundle-cli.mjs).
 */
export function cpuWorkerBeside(moduleUrl: string): URL {
  const extension = moduleUrl.endsWith('.ts') ? '.ts' : '.js'
  return new URL(`./cpu-worker${extension}`, moduleUrl)
}

/** The engine's worker module, beside this one. */
export function defaultCpuWorkerUrl(): URL {
  return cpuWorkerBeside(import.meta.url)
}

/**
 * A worker running `url`. Source (`.ts`, under tsx or a test runner) needs tsx's loader, which a
 * worker does not inherit: the worker registers it first.
 */
function spawn(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url)
  const boot = `import('tsx/esm/api').then((api) => api.register()).then(() => import(${JSON.stringify(url.href)}))`
  return new Worker(boot, { eval: true })
}

/** Creates a pool of `threads` workers, started on first use. */
export function createCpuThreadPool(options: CpuThreadPoolOptions): CpuThreadPool {
  const threads = Math.max(1, Math.floor(options.threads))
  const workerUrl = options.workerUrl ?? defaultCpuWorkerUrl()
  const tasks = options.tasks ?? ENGINE_CPU_TASKS
  const lanes = fairLanes<Task>({
    limits: options.limits ?? (() => ({ running: 1, waiting: 8 })),
    maxWaiting: options.maxWaiting ?? 256,
  })
  let live: Thread[] | null = null
  /** Some thread never started: work without a thread runs on the calling thread. */
  let broken = false
  let closed = false
  let nextId = 0
  let fallbacks = 0

  const inThread = (task: Task) => {
    fallbacks += 1
    try {
      task.resolve(runCpuTask(tasks, task.request))
    } catch (error) {
      task.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }
  const dispatch = () => {
    for (const thread of live ?? []) {
      if (thread.current !== null) continue
      const next = lanes.next()
      if (!next) return
      thread.current = { lane: next.lane, task: next.item }
      thread.worker.ref()
      thread.worker.postMessage(next.item.request)
    }
  }
  const retire = (thread: Thread, why: string) => {
    if (closed || !(live ?? []).includes(thread)) return
    live = (live ?? []).filter((other) => other !== thread)
    const orphan = thread.current
    thread.current = null
    void thread.worker.terminate()
    if (orphan) lanes.finish(orphan.lane)
    if (thread.ready) {
      // It worked before: replace it. The task it ran may be what stopped it, so it fails.
      live.push(startThread())
      orphan?.task.reject(
        new Error(`A CPU worker thread stopped while running this task (${why}).`),
      )
      dispatch()
      return
    }
    broken = true
    if (orphan) inThread(orphan.task)
    // With no thread left, what waits is answered here; otherwise the others take it.
    if (live.length === 0) for (const task of lanes.drain()) inThread(task)
    else dispatch()
  }
  const startThread = (): Thread => {
    const worker = spawn(workerUrl)
    const thread: Thread = { worker, current: null, ready: false }
    worker.on('message', (answer: CpuAnswer) => {
      if ('ready' in answer) {
        thread.ready = true
        return
      }
      const current = thread.current
      if (!current || current.task.request.id !== answer.id) return
      thread.current = null
      worker.unref()
      lanes.finish(current.lane)
      if ('error' in answer) current.task.reject(new Error(answer.error))
      else current.task.resolve(answer.value)
      dispatch()
    })
    worker.on('error', (error) => retire(thread, String(error)))
    worker.on('exit', (code) => retire(thread, `exit code ${code}`))
    // An idle thread must not keep the process alive; a busy one must. After the listeners:
    // adding a 'message' listener refs the worker's port again.
    worker.unref()
    return thread
  }
  const start = (): Thread[] => Array.from({ length: threads }, startThread)

  return {
    threads,
    get fallbacks() {
      return fallbacks
    },
    run: (lane, task, args) =>
      new Promise((resolve, reject) => {
        const request: CpuRequest = { id: nextId, task: task as CpuTaskName, args }
        nextId += 1
        const queued: Task = { request, resolve: resolve as (value: unknown) => void, reject }
        if (broken && (live ?? []).length === 0) return inThread(queued)
        if (!lanes.push(lane, queued)) {
          reject(
            new SomnusError(
              'BUSY',
              'Too much of this work is already waiting: try again in a moment, with fewer requests at once.',
              { details: { lane } },
            ),
          )
          return
        }
        live ??= start()
        dispatch()
      }) as never,
    close: async () => {
      const stopping = live ?? []
      closed = true
      broken = true
      live = []
      const unfinished = stopping.flatMap((thread) => {
        const current = thread.current
        thread.current = null
        if (current) lanes.finish(current.lane)
        return current ? [current.task] : []
      })
      await Promise.all(stopping.map((thread) => thread.worker.terminate()))
      for (const task of [...unfinished, ...lanes.drain()]) inThread(task)
    },
  }
}
