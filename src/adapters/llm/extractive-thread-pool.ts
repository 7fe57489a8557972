/**
 * Worker threads for the extractive summarizer: its work is pure CPU, so on N cores N threads
 * summarize N texts at once while the main thread talks to the database. A thread that cannot
 * start (a runtime without the worker file, such as a test transform) or dies hands its requests
 * back to the main thread, so a call never fails for want of a thread.
 */
import { Worker } from 'node:worker_threads'
import type { TextUnit } from '../../core/extractive/sentences.ts'
import { type MeasuredSummary, summarizeLevels } from '../../core/extractive/summarize.ts'
import type { LevelsRequest } from './extractive-worker.ts'

/** Summaries computed on worker threads. */
export interface ExtractiveThreadPool {
  readonly threads: number
  /** Calls answered on the calling thread because no worker could take them (0 when all is well). */
  readonly fallbacks: number
  /** `summarizeLevels` of `units`, on the least busy thread. */
  summarizeLevels(units: TextUnit[], budgets: number[]): Promise<MeasuredSummary[]>
  /** Stops every thread; later calls run on the main thread. */
  close(): Promise<void>
}

interface Pending {
  request: LevelsRequest
  resolve: (value: MeasuredSummary[]) => void
  reject: (error: Error) => void
}

interface Thread {
  worker: Worker
  pending: Map<number, Pending>
}

/** The worker module beside this one: `.ts` when run from source (tsx), `.js` when built. */
export function defaultWorkerUrl(): URL {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
  return new URL(`./extractive-worker${extension}`, import.meta.url)
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
export function createExtractiveThreadPool(
  threads: number,
  workerUrl: URL = defaultWorkerUrl(),
): ExtractiveThreadPool {
  let live: Thread[] | null = null
  let broken = false
  let nextId = 0
  let fallbacks = 0

  const inThread = (request: LevelsRequest, pending: Pending) => {
    fallbacks += 1
    try {
      pending.resolve(summarizeLevels(request.units, request.budgets))
    } catch (error) {
      pending.reject(error instanceof Error ? error : new Error(String(error)))
    }
  }
  const retire = (thread: Thread) => {
    broken = true
    live = (live ?? []).filter((other) => other !== thread)
    const orphans = [...thread.pending.values()]
    thread.pending.clear()
    for (const pending of orphans) inThread(pending.request, pending)
    void thread.worker.terminate()
  }
  const start = (): Thread[] =>
    Array.from({ length: threads }, () => {
      const worker = spawn(workerUrl)
      const thread: Thread = { worker, pending: new Map() }
      worker.on('message', (answer: { id: number; value?: MeasuredSummary[]; error?: string }) => {
        const pending = thread.pending.get(answer.id)
        if (!pending) return
        thread.pending.delete(answer.id)
        if (thread.pending.size === 0) worker.unref()
        if (answer.value) pending.resolve(answer.value)
        else pending.reject(new Error(answer.error ?? 'extractive worker failed'))
      })
      worker.on('error', () => retire(thread))
      worker.on('exit', () => {
        if (thread.pending.size > 0) retire(thread)
      })
      // An idle thread must not keep the process alive; a busy one must. After the listeners:
      // adding a 'message' listener refs the worker's port again.
      worker.unref()
      return thread
    })

  return {
    threads,
    get fallbacks() {
      return fallbacks
    },
    summarizeLevels: (units, budgets) =>
      new Promise((resolve, reject) => {
        const request: LevelsRequest = { id: nextId, units, budgets }
        nextId += 1
        const pending = { request, resolve, reject }
        if (broken) return inThread(request, pending)
        live ??= start()
        let least: Thread | undefined
        for (const thread of live) {
          if (!least || thread.pending.size < least.pending.size) least = thread
        }
        if (!least) return inThread(request, pending)
        least.pending.set(request.id, pending)
        least.worker.ref()
        least.worker.postMessage(request)
      }),
    close: async () => {
      const threadsNow = live ?? []
      broken = true
      live = []
      await Promise.all(threadsNow.map((thread) => thread.worker.terminate()))
    },
  }
}
