/**
 * `somnus serve`: the consolidation service's HTTP API (seed 003, docs/design/origins.md), with the
 * scheduler and a worker in the same process unless told otherwise. SIGTERM or SIGINT stops it
 * cleanly: no new requests, requests in flight answered, the running job finished or released, the
 * database closed.
 */
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { CliIo } from '../cli-io.ts'
import { mindsFolder } from '../minds-folder.ts'
import { openService, type ServiceCliOptions, withServiceOptions } from '../open-service.ts'
import { VERSION } from '../version.ts'

interface ServeOptions extends ServiceCliOptions {
  port?: string
  host: string
  auth: boolean
  worker: boolean
  scheduler: boolean
  maxBody?: string
  mindsDir?: string
}

/** Adds `serve` to the program. */
export function register(program: Command, io: CliIo): void {
  withServiceOptions(program.command('serve'))
    .description(
      'Serve the consolidation API (handoffs, jobs, stats) with its scheduler and a worker',
    )
    .option('--port <port>', 'TCP port (default: PORT, else 3456)')
    .option(
      '--host <address>',
      'address to bind; anything but loopback needs API keys',
      '127.0.0.1',
    )
    .option('--no-auth', 'serve without API keys, tenant_id naming the tenant (loopback only)')
    .option(
      '--no-worker',
      'run no consolidation job in this process: POST /run only queues (run somnus worker elsewhere)',
    )
    .option('--no-scheduler', 'do not enqueue the daily, weekly and monthly runs')
    .option('--max-body <bytes>', 'largest request body accepted', String(1024 * 1024))
    .option(
      '--minds-dir <folder>',
      "the tenants' creature folders for /api/v1/mind (default: SOMNUS_MINDS_DIR, else <data folder>/minds)",
    )
    .addHelpText(
      'after',
      `
Every /api route needs an API key (Authorization: Bearer <key> or X-API-Key: <key>; make one
with somnus tenant create) and sees only its tenant. /health, /metrics (Prometheus),
/openapi.json and /docs need none. With --no-auth the server binds loopback only, answers only
requests whose Host is a loopback name (no DNS rebinding), and tenant_id (default 'default') picks
the tenant, as in the seed. Handoffs and decisions can be deleted (DELETE /api/v1/handoffs/<id>,
/api/v1/decisions/<id>); somnus tenant delete removes a whole tenant. /dashboard/ is a page of
each tenant's savings, handoff levels, jobs and principles: it asks for the key and keeps it in
memory only.

POST /api/v1/consolidation/run queues the jobs and answers at once (202, their ids; follow them at
/api/v1/consolidation/jobs/<job_id>); ?wait=true answers once they have ended, in the seed's
shape. A worker runs them: this server's, or with --no-worker a somnus worker elsewhere.

Several somnus serve or somnus worker processes can share one PostgreSQL database; the embedded
PGlite database belongs to one process.

/api/v1/mind serves each tenant a creature (seed 004: events, sleep, wake, status, observations,
dreams, recall), kept in <minds folder>/<tenant id>/ with the service's --model (extractive by
default). Several servers on one PostgreSQL database need --minds-dir on a folder they share.

Examples:
  somnus serve                                   # PGlite in the data folder, port 3456
  somnus serve --db postgres://postgres@127.0.0.1:5432/somnus --host 0.0.0.0 --port 8080
  somnus serve --no-auth                         # local tinkering, the seed's curl examples work
  curl -s localhost:3456/health`,
    )
    .action(async (options: ServeOptions) => {
      await serve(io, options)
    })
}

function parsePort(value: string | undefined): number {
  const port = Number(value ?? 3456)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SomnusError('USAGE', `--port needs a whole number from 0 to 65535 (got "${value}").`)
  }
  return port
}

function parseBytes(value: string | undefined): number {
  const bytes = Number(value)
  if (!Number.isInteger(bytes) || bytes < 1) {
    throw new SomnusError('USAGE', `--max-body needs a positive number of bytes (got "${value}").`)
  }
  return bytes
}

async function serve(io: CliIo, options: ServeOptions): Promise<void> {
  const port = parsePort(options.port ?? io.env.PORT)
  const maxBodyBytes = parseBytes(options.maxBody)
  const [
    { checkBindAddress, startHttpServer },
    { createHttpApp },
    { serviceApiFor },
    { isMindModel, tenantMinds },
  ] = await Promise.all([
    import('../../http/start-http-server.ts'),
    import('../../http/create-http-app.ts'),
    import('../../http/service-api-for.ts'),
    import('../../http/tenant-minds.ts'),
  ])
  // Checked before the database opens: a refused address should not cost a migration.
  checkBindAddress(options.host, options.auth)
  const service = await openService(io, options)
  io.stdout(`somnus serve: data: ${service.description}\n`)
  // From here a signal stops the server cleanly, even one that arrives while it starts.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      process.off('SIGTERM', stop)
      process.off('SIGINT', stop)
      resolve(received)
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
  const log = (line: string) => io.stderr(line)
  // Fired first on a stop signal, so no request waiting for jobs holds the server open.
  const stopWaiting = new AbortController()
  const api = serviceApiFor(service, { stopping: stopWaiting.signal })
  const mindModel = isMindModel(options.model) ? options.model : 'extractive'
  if (mindModel !== options.model && options.model !== undefined) {
    io.stderr(`somnus serve: creatures consolidate with extractive (${options.model} cannot)\n`)
  }
  const minds = tenantMinds({
    folder: await mindsFolder(io, options),
    model: mindModel,
    env: io.env,
    cpu: service.cpu,
  })
  io.stdout(`somnus serve: minds: ${minds.description} (one creature per tenant)\n`)
  const app = createHttpApp({
    service: api,
    auth: { required: options.auth },
    version: VERSION,
    maxBodyBytes,
    log,
    minds,
  })
  await addDashboard(app, api, service, options.auth)
  const stopping = new AbortController()
  let server: Awaited<ReturnType<typeof startHttpServer>>
  try {
    server = await startHttpServer({
      fetch: app.fetch,
      host: options.host,
      port,
      authRequired: options.auth,
    })
  } catch (error) {
    await service.close()
    throw error
  }
  io.stdout(
    `somnus serve: listening on ${server.url} (${options.auth ? 'API keys required' : 'no auth, loopback only'}; docs at ${server.url}/docs)\n`,
  )
  const stopScheduler = options.scheduler
    ? await service.startScheduler({
        onEnqueued: (run, added) =>
          io.stdout(`somnus serve: ${run} run enqueued ${added} job(s)\n`),
        onError: (error) => log(`somnus serve: scheduler: ${String(error)}\n`),
      })
    : () => {}
  const worker = options.worker
    ? service.work({ signal: stopping.signal }).catch((error: unknown) => {
        log(`somnus serve: worker stopped: ${String(error)}\n`)
      })
    : Promise.resolve()
  if (options.worker) io.stdout('somnus serve: a worker runs jobs in this process\n')
  // Search vectors are made between writes, never in a request (see service/app/index-handoffs.ts).
  const stopIndexer = service.startSearchIndexer({
    quiet: () => Date.now() - api.lastHandoffWrite() > 500,
    onError: (error) => log(`somnus serve: search indexer: ${String(error)}\n`),
  })

  const signal = await stopSignal
  io.stdout(`somnus serve: ${signal}: stopping\n`)
  stopScheduler()
  await stopIndexer()
  stopWaiting.abort()
  await server.close()
  stopping.abort()
  await worker
  await api.drain()
  await service.close()
  io.stdout('somnus serve: stopped\n')
}

/** `/dashboard/`: each tenant's page, behind its API key (src/surfaces/dashboard/). */
async function addDashboard(
  app: Parameters<typeof import('../../dashboard/tenant-dashboard.ts').addTenantDashboard>[0],
  api: import('../../http/service-api.ts').ServiceApi,
  service: Awaited<ReturnType<typeof openService>>,
  authRequired: boolean,
): Promise<void> {
  const [{ addTenantDashboard }, { loadDashboardAssets }, { findPackageRoot }] = await Promise.all([
    import('../../dashboard/tenant-dashboard.ts'),
    import('../../dashboard/dashboard-assets.ts'),
    import('./init.ts'),
  ])
  addTenantDashboard(app, {
    api,
    auth: { required: authRequired },
    assets: loadDashboardAssets(findPackageRoot()),
    levelCounts: (tenantId) => service.handoffLevelCounts(tenantId),
  })
}
