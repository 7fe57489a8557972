/**
 * The composition root of the consolidation service: opens the SQL database (PGlite by default,
 * PostgreSQL for `postgres://` URLs), picks the model, and binds the service use cases to them.
 * Loaded only by `createSomnusService`, so no hook or brain command ever loads SQL code.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import {
  createExtractiveLanguageModel,
  MODEL_LANE,
} from '../engine/adapters/llm/extractive-language-model.ts'
import { cpuWorkerBeside, createCpuThreadPool } from '../engine/adapters/node/cpu-thread-pool.ts'
import { serviceIds } from '../engine/adapters/node/random-ids.ts'
import { lazyWordVectors } from '../engine/adapters/node/word-vectors-file.ts'
import { createMiniSearchRecallIndex } from '../engine/adapters/search/minisearch-recall-index.ts'
import { composeLanguageModel } from '../engine/compose-model.ts'
import { resolveConfig } from '../engine/core/config.ts'
import type { Clock } from '../engine/ports/clock.ts'
import { systemClock } from '../engine/ports/clock.ts'
import type { CpuWork } from '../engine/ports/cpu-work.ts'
import type { IdGenerator } from '../engine/ports/id-generator.ts'
import type { LanguageModel } from '../engine/ports/language-model.ts'
import { parseDatabaseLocation } from './adapters/sql/open-service-database.ts'
import { openSqlServiceStores } from './adapters/sql/sql-service-stores.ts'
import { createHandoffs } from './app/create-handoffs.ts'
import { enqueueScheduledRun, type ScheduledRun } from './app/enqueue-scheduled-run.ts'
import { type ImportOptions, type ImportResult, importHandoffs } from './app/import-handoffs.ts'
import { indexPendingHandoffs } from './app/index-handoffs.ts'
import type { JobTally } from './app/job-context.ts'
import { getConsolidationStats, listConsolidationJobs } from './app/read-consolidation.ts'
import { runConsolidation } from './app/run-consolidation.ts'
import { searchHandoffs } from './app/search-handoffs.ts'
import type { ServiceDependencies } from './app/service-dependencies.ts'
import { type ServiceUseCases, serviceUseCases } from './app/service-use-cases.ts'
import { type WorkJobsOptions, workJobs } from './app/work-jobs.ts'
import type { ConsolidationJob, RunJobType } from './core/consolidation-job.ts'
import type { Handoff, HandoffInput } from './core/handoff.ts'
import {
  type HandoffSearchHit,
  type HandoffSearchQuery,
  UNIT_WEIGHTS,
} from './core/handoff-search.ts'
import { resolveServiceConfig, type ServiceConfig } from './core/service-config.ts'
import { SERVICE_CPU_TASKS } from './service-cpu-tasks.ts'

/** How to open the service. */
export interface SomnusServiceOptions {
  /**
   * `postgres://…` for PostgreSQL, a folder for embedded PGlite, `:memory:` for a throwaway one.
   * Default: SOMNUS_DATABASE_URL, else the PGlite folder `defaultServiceDataDir()` names.
   */
  database?: string | undefined
  /** PostgreSQL only: keep the tables in this schema instead of `public`. */
  schema?: string | undefined
  /**
   * Settings over seed 003's defaults (see service/core/service-config.ts)
   * (docs/design/origins.md).
   */
  config?: unknown
  /** A model or a spec (`extractive`, `anthropic:<model>`…); default `extractive`. */
  model?: LanguageModel | string | undefined
  clock?: Clock | undefined
  ids?: IdGenerator | undefined
  env?: Record<string, string | undefined> | undefined
}

/** The service's use cases bound to one database. */
export interface SomnusService extends ServiceUseCases {
  /** `PGlite in /path` or `PostgreSQL at …`: say it on start. */
  readonly description: string
  readonly engine: 'pglite' | 'postgres'
  /** When a database statement last succeeded (ms since the epoch), or null: for `/health`. */
  lastDatabaseAnswerAt(): number | null
  readonly config: ServiceConfig
  /** The service's CPU threads, for the tenants' creatures to consolidate on. */
  readonly cpu: CpuWork
  createHandoffs(tenantId: string, inputs: readonly HandoffInput[]): Promise<Handoff[]>
  /** Imports handoffs in one transaction, skipping those already stored (see import-handoffs.ts). */
  importHandoffs(
    tenantId: string,
    inputs: readonly HandoffInput[],
    options?: ImportOptions,
  ): Promise<ImportResult>
  /** The units of the tenant's handoffs that best match the query (see search-handoffs.ts). */
  searchHandoffs(tenantId: string, query: HandoffSearchQuery): Promise<HandoffSearchHit[]>
  runConsolidation(request: {
    tenantId: string
    jobType: RunJobType
    asOf?: Date | undefined
    signal?: AbortSignal | undefined
    onJobStart?: ((job: ConsolidationJob) => void) | undefined
    onProgress?: ((job: ConsolidationJob, tally: JobTally) => void) | undefined
  }): ReturnType<typeof runConsolidation>
  stats(tenantId: string): ReturnType<typeof getConsolidationStats>
  jobs(
    tenantId: string,
    query: Parameters<typeof listConsolidationJobs>[2],
  ): ReturnType<typeof listConsolidationJobs>
  /** Runs a worker until its signal fires; see WorkJobsOptions. */
  work(options: Omit<WorkJobsOptions, 'workerId'> & { workerId?: string }): Promise<number>
  /** Adds one scheduled run's jobs for every tenant (what a cron tick does). */
  enqueueScheduledRun(run: ScheduledRun, slot: Date): Promise<number>
  /**
   * Indexes new and compressed handoffs for search in the background: every second, everything
   * pending while `quiet()` says no writes are arriving, else one small batch every ten seconds
   * (ingest keeps the CPU). Returns a function that stops it and waits for a pass in flight.
   */
  startSearchIndexer(options: {
    quiet: () => boolean
    onError?: (error: unknown) => void
  }): () => Promise<void>
  /** Starts the cron schedule (UTC); returns a function that stops it. */
  startScheduler(options?: {
    onEnqueued?: (run: ScheduledRun, added: number) => void
    onError?: (error: unknown) => void
  }): Promise<() => void>
  close(): Promise<void>
}

/** The default embedded database folder: SOMNUS_DATA_DIR, else ~/.local/share/somnus/service-db. */
export function defaultServiceDataDir(
  env: Record<string, string | undefined> = process.env,
): string {
  if (env.SOMNUS_DATA_DIR) return env.SOMNUS_DATA_DIR
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share')
  return join(base, 'somnus', 'service-db')
}

/** A worker id that says where it runs: `host:pid:random`. */
function newWorkerId(ids: IdGenerator): string {
  return `${process.env.HOSTNAME ?? 'worker'}:${process.pid}:${ids.next('w')}`
}

/** Opens the service as `options` say. */
export async function composeSomnusService(
  options: SomnusServiceOptions = {},
): Promise<SomnusService> {
  const env = options.env ?? process.env
  const config = resolveServiceConfig(options.config ?? {})
  const clock = options.clock ?? systemClock
  const ids = options.ids ?? serviceIds
  const spec = options.database ?? env.SOMNUS_DATABASE_URL ?? defaultServiceDataDir(env)
  const parsed = parseDatabaseLocation(spec)
  const location =
    parsed.kind === 'postgres' ? { ...parsed, schema: options.schema ?? parsed.schema } : parsed
  // Threads start on first use: a command that never counts a big handoff or consolidates
  // starts none.
  const threads = config.compression_threads
  const cpu = createCpuThreadPool({
    threads,
    tasks: SERVICE_CPU_TASKS,
    workerUrl: cpuWorkerBeside(import.meta.url),
    limits: (lane) =>
      lane === MODEL_LANE
        ? { running: threads, waiting: Number.POSITIVE_INFINITY }
        : { running: config.tenant_cpu_concurrency, waiting: config.tenant_cpu_queue },
  })
  const modelSpec = options.model ?? 'extractive'
  const model =
    typeof modelSpec === 'object'
      ? modelSpec
      : modelSpec === 'extractive'
        ? createExtractiveLanguageModel({
            pool: { work: cpu, threads },
            wordVectors: lazyWordVectors(),
          })
        : await composeLanguageModel(modelSpec, {
            config: resolveConfig({ fileText: null, filePath: 'somnus.json', env }),
            env,
          })
  const { stores, database } = await openSqlServiceStores(location).catch(async (error) => {
    await cpu.close()
    throw error
  })
  const dependencies: ServiceDependencies = { stores, model, clock, ids, config, cpu }
  const workerId = newWorkerId(ids)
  return {
    description: database.description,
    engine: database.engine,
    lastDatabaseAnswerAt: () => database.lastAnswerAt(),
    config,
    cpu,
    ...serviceUseCases(dependencies, { lastDatabaseAnswerAt: () => database.lastAnswerAt() }),
    createHandoffs: (tenantId, inputs) => createHandoffs(dependencies, tenantId, inputs),
    importHandoffs: (tenantId, inputs, importOptions) =>
      importHandoffs(dependencies, tenantId, inputs, importOptions),
    searchHandoffs: (tenantId, query) =>
      searchHandoffs(
        dependencies,
        () => createMiniSearchRecallIndex({ contextBoost: UNIT_WEIGHTS.context }),
        tenantId,
        query,
      ),
    runConsolidation: (request) => runConsolidation(dependencies, { ...request, workerId }),
    stats: (tenantId) => getConsolidationStats(dependencies, tenantId),
    jobs: (tenantId, query) => listConsolidationJobs(dependencies, tenantId, query),
    work: (workOptions) =>
      workJobs(dependencies, { ...workOptions, workerId: workOptions.workerId ?? workerId }),
    enqueueScheduledRun: (run, slot) => enqueueScheduledRun(dependencies, run, slot),
    startSearchIndexer: ({ quiet, onError }) => {
      const stop = new AbortController()
      let tick = 0
      let pass: Promise<unknown> = Promise.resolve()
      let running = false
      const timer = setInterval(() => {
        tick += 1
        if (running || (!quiet() && tick % 10 !== 0)) return
        running = true
        pass = indexPendingHandoffs(
          dependencies,
          quiet() ? { signal: stop.signal } : { batch: 200, maxBatches: 1 },
        )
          .catch((error: unknown) => onError?.(error))
          .finally(() => {
            running = false
          })
      }, 1_000)
      timer.unref()
      return async () => {
        clearInterval(timer)
        stop.abort()
        await pass
      }
    },
    startScheduler: async (schedulerOptions = {}) => {
      const { startCronSchedule } = await import('./adapters/node/cron-schedule.ts')
      return startCronSchedule(config.schedule, async (run, slot) => {
        try {
          const added = await enqueueScheduledRun(dependencies, run, slot)
          schedulerOptions.onEnqueued?.(run, added)
        } catch (error) {
          schedulerOptions.onError?.(error)
        }
      })
    },
    close: async () => {
      await cpu.close()
      await stores.close()
    },
  }
}
