/**
 * `somnus dashboard`: a local, read-only page that shows the brain found from this folder (sleep
 * debt over time, every sleep and its diff, the brain now, patterns, recall), or a creature's
 * with --mind. It serves 127.0.0.1 only and prints the URL; Ctrl-C stops it.
 */
import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { DashboardEndpoint } from '../../dashboard/dashboard-server.ts'
import type { CliIo } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { findPackageRoot } from './init.ts'

/** The port unless --port says otherwise (serve's default is 3456). */
const DEFAULT_PORT = 3457

interface DashboardOptions {
  port: string
  open?: boolean
  json?: boolean
  mind?: string
}

/** Adds `dashboard` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('dashboard')
    .description('Show the brain (or a creature) in a local, read-only web page')
    .option('--port <port>', `TCP port on 127.0.0.1 (0: any free port)`, String(DEFAULT_PORT))
    .option('--open', 'open the page in the default browser')
    .option('--json', 'print {"url": ...} as one JSON line once serving (for scripts)')
    .option('--mind <folder>', "show this creature's folder instead (e.g. .self)")
    .addHelpText(
      'after',
      `
The page shows, for the brain found from the current folder:
  Sleep debt   debt before and after every sleep and now, with the drowsy/sleepy/must-sleep
               bands; every session's score, changes and tools (pending ones marked)
  Sleeps       every sleep: what it read and, as a diff, what it added, moved and archived;
               each line links to its sources (the session digest line, the record ids)
  Brain now    core files, digests, knowledge with staleness, tasks, triggers, bookmarks
  Patterns     the project's patterns and the skills and CLAUDE.md lines that cite them
  Search       recall over everything (the index as the last sleep run or recall left it)
With --mind <folder>, a creature (somnus mind): fatigue over time against the warning (60) and
the limit (80), dreams (light, full, deep) on a timeline, observations by priority and age, and
the priorities its dreams set.
Every chart has its numbers in a table beside it. It is read-only: nothing in the brain
changes. It listens on 127.0.0.1 only and answers only requests addressed to the loopback.
Diffs are kept from this version on (state/.sleeps/); older sleeps show their summary only.

Examples:
  somnus dashboard
  somnus dashboard --port 0 --open
  somnus dashboard --mind .self`,
    )
    .action(async (options: DashboardOptions) => {
      const port = portOf(options.port)
      if (options.mind !== undefined) {
        const api = await mindEndpoints(io, options.mind)
        await serve(io, { port, view: 'mind', api, open: options.open, json: options.json })
        return
      }
      const api = await brainEndpoints(io)
      await serve(io, { port, view: 'brain', api, open: options.open, json: options.json })
    })
}

async function mindEndpoints(
  io: CliIo,
  folder: string,
): Promise<Record<string, DashboardEndpoint>> {
  const path = resolve(io.cwd, folder)
  // Opening a folder that is not there would lay out a new creature: the dashboard only reads.
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new SomnusError(
      'NOT_FOUND',
      `No creature folder at ${path}. Give the folder somnus mind uses (default .self): somnus dashboard --mind .self`,
    )
  }
  const [{ openMindFolder }, { mindOverview }] = await Promise.all([
    import('../../../mind/create-mind.ts'),
    import('../../dashboard/mind-dashboard-data.ts'),
  ])
  const mind = await openMindFolder({ folder: path, location: folder, env: io.env })
  return { overview: () => mindOverview(mind, new Date()) }
}

async function brainEndpoints(io: CliIo): Promise<Record<string, DashboardEndpoint>> {
  const [somnus, { brainDashboardData }, { openSleepRecords }] = await Promise.all([
    openSomnus(io),
    import('../../dashboard/brain-dashboard-data.ts'),
    import('../../../brain/create-somnus.ts'),
  ])
  const sleepRecords = await openSleepRecords(somnus.brain.root)
  // Read the records' summaries now, while the server starts and the browser opens, so the first
  // view does not wait on a thousand parses; a failure here shows again on the first request.
  sleepRecords.summaries().catch(() => undefined)
  const data = brainDashboardData({
    somnus,
    sleepRecords,
    patterns: async () => {
      const [{ createSomnusPatterns }, { patternsData }] = await Promise.all([
        import('../../../patterns/create-somnus-patterns.ts'),
        import('../../dashboard/patterns-data.ts'),
      ])
      try {
        return await patternsData(
          await createSomnusPatterns({ cwd: somnus.brain.projectDir, env: io.env }),
        )
      } catch (error) {
        if (error instanceof SomnusError && error.code === 'NOT_FOUND') return null
        throw error
      }
    },
  })
  return {
    overview: () => data.overview(),
    sleep: (query) => data.sleep(query.get('id') ?? ''),
    now: () => data.now(),
    document: (query) => data.document(query.get('path') ?? ''),
    patterns: () => data.patterns(),
    recall: (query) => data.recall(query.get('q') ?? ''),
  }
}

async function serve(
  io: CliIo,
  options: {
    port: number
    view: 'brain' | 'mind'
    api: Record<string, DashboardEndpoint>
    open?: boolean | undefined
    json?: boolean | undefined
  },
): Promise<void> {
  const [{ loadDashboardAssets }, { startDashboardServer }] = await Promise.all([
    import('../../dashboard/dashboard-assets.ts'),
    import('../../dashboard/dashboard-server.ts'),
  ])
  const assets = loadDashboardAssets(findPackageRoot())
  let running: Awaited<ReturnType<typeof startDashboardServer>>
  try {
    running = await startDashboardServer({
      port: options.port,
      view: options.view,
      assets,
      api: options.api,
      warn: (message) => io.stderr(`somnus: ${message}\n`),
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SomnusError(
        'USAGE',
        `Port ${options.port} on 127.0.0.1 is taken. Pick another with --port, or --port 0 for any free one.`,
        { cause: error },
      )
    }
    throw error
  }
  if (options.json) io.stdout(`${JSON.stringify({ url: running.url })}\n`)
  else io.stdout(`somnus dashboard: ${running.url} (read-only; Ctrl-C stops it)\n`)
  if (options.open) openInBrowser(running.url)
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      process.off('SIGTERM', stop)
      process.off('SIGINT', stop)
      resolve(received)
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
  await running.close()
  if (!options.json) io.stdout(`somnus dashboard: ${signal}: stopped\n`)
}

/** Opens our own URL (never brain text) with the platform's opener; a failure only says so. */
function openInBrowser(url: string): void {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // No opener: the URL is printed anyway.
  }
}

function portOf(text: string): number {
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SomnusError(
      'USAGE',
      `--port takes a whole number from 0 to 65535, not "${text}". Example: somnus dashboard --port 8080`,
    )
  }
  return port
}
