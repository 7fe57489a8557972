/**
 * Soak part (a): many concurrent Stop hooks over several workspaces, ★★★ `bookmark add`s mixed
 * in, and `somnus sleep run`s racing them (some two at a time in one workspace). At the end every
 * session a Stop recorded must be in the ledger or in a history entry, and every bookmark in the
 * ledger or in the brain: nothing cleared unread.
 */
import { SOMNUS_HOOKS } from '../src/brain/core/claude-settings.ts'
import { isCorruptFile, isTempFile, listFiles } from './soak-brain-files.ts'
import { type PartResult, progress } from './soak-report.ts'
import {
  bookmarkText,
  createWorkspace,
  inPool,
  type ProcessRun,
  removeBase,
  runHookProcess,
  runSomnus,
  type SoakWorkspace,
  seededRandom,
  soakBase,
  stopPayload,
  writeTranscript,
} from './soak-support.ts'
import { account, type Expected, printedBookmarkId } from './soak-verify.ts'

/** Sizes of the stops part. */
export interface StopsOptions {
  stops: number
  concurrency: number
  seed: number
}

const STOP_TIMEOUT_MS = (SOMNUS_HOOKS.find((hook) => hook.verb === 'stop')?.timeout ?? 5) * 1000

type Job = () => Promise<void>

/** Runs the part and returns its counts. */
export async function soakStops(options: StopsOptions): Promise<PartResult> {
  const started = performance.now()
  const random = seededRandom(options.seed)
  const workspaceCount = Math.max(2, Math.min(10, Math.round(options.stops / 100)))
  const base = soakBase('stops')
  const workspaces = Array.from({ length: workspaceCount }, (_, index) =>
    createWorkspace(base, `w${index}`),
  )
  const expected = new Map<SoakWorkspace, Expected>(
    workspaces.map((workspace) => [workspace, { sessions: [], bookmarks: [] }]),
  )
  const counts = {
    stopExitsNonZero: [] as string[],
    stopsOverTimeout: [] as string[],
    bookmarkFailures: [] as string[],
    sleepRuns: 0,
    sleepRunFailures: [] as string[],
    maxStopMs: 0,
  }
  const jobs: Job[] = []
  for (let index = 0; index < options.stops; index += 1) {
    const workspace = workspaces[index % workspaceCount] as SoakWorkspace
    const sessionId = `soak-${workspace.name}-s${String(index).padStart(5, '0')}`
    const token = `stoptok${String(index).padStart(5, '0')}x`
    jobs.push(async () => {
      const transcript = writeTranscript(workspace, sessionId, token)
      const run = await runHookProcess(
        workspace,
        'stop',
        stopPayload(workspace, sessionId, transcript, token),
      )
      counts.maxStopMs = Math.max(counts.maxStopMs, run.ms)
      if (run.code !== 0) counts.stopExitsNonZero.push(`${sessionId}: ${describe(run)}`)
      else expected.get(workspace)?.sessions.push({ id: sessionId, token })
      if (run.ms > STOP_TIMEOUT_MS)
        counts.stopsOverTimeout.push(`${sessionId}: ${run.ms.toFixed(0)} ms`)
    })
  }
  const bookmarkCount = Math.max(workspaceCount, Math.round(options.stops / 5))
  for (let index = 0; index < bookmarkCount; index += 1) {
    const workspace = workspaces[index % workspaceCount] as SoakWorkspace
    const token = `markw${workspace.name.slice(1)}n${String(index).padStart(5, '0')}x`
    jobs.push(async () => {
      // The workspace's own count picks the fact, so each workspace gets every kind of fact.
      const text = bookmarkText(token, Math.floor(index / workspaceCount))
      const run = await runSomnus(workspace, ['bookmark', 'add', '-s', '3', text])
      if (run.code !== 0) counts.bookmarkFailures.push(`${token}: ${describe(run)}`)
      else expected.get(workspace)?.bookmarks.push({ token, id: printedBookmarkId(run.stdout) })
    })
  }
  const sleepRun = async (workspace: SoakWorkspace) => {
    const run = await runSomnus(workspace, ['sleep', 'run'])
    counts.sleepRuns += 1
    if (run.code !== 0) counts.sleepRunFailures.push(`${workspace.name}: ${describe(run)}`)
  }
  // Per workspace: single runs, and pairs started together so two runs overlap.
  const runsPerWorkspace = Math.max(2, Math.round(options.stops / workspaceCount / 20))
  for (const workspace of workspaces) {
    for (let index = 0; index < runsPerWorkspace; index += 1) {
      if (index % 3 === 2)
        jobs.push(async () => void (await Promise.all([sleepRun(workspace), sleepRun(workspace)])))
      else jobs.push(() => sleepRun(workspace))
    }
  }
  shuffle(jobs, random)
  progress(
    `stops: ${options.stops} Stops, ${bookmarkCount} bookmarks, ~${runsPerWorkspace * workspaceCount} sleep-run jobs over ${workspaceCount} workspaces, ${options.concurrency} at once`,
  )
  let done = 0
  await inPool(
    options.concurrency,
    jobs.map((job) => async () => {
      await job()
      done += 1
      if (done % 200 === 0) progress(`stops: ${done}/${jobs.length} jobs`)
    }),
  )

  // Stops that found the ledger busy queued their turn in its inbox: the next holder of the
  // lock merges them, as `sleep status` does here.
  for (const workspace of workspaces) {
    const status = await runSomnus(workspace, ['sleep', 'status', '--json'])
    if (status.code !== 0)
      counts.sleepRunFailures.push(`${workspace.name}: status ${describe(status)}`)
  }
  const sessionsLost: string[] = []
  const clearedUnread: string[] = []
  const bookmarksLost: string[] = []
  const unreadable: string[] = []
  const leftovers: string[] = []
  let bookmarkIdsTracked = false
  let recorded = 0
  let bookmarked = 0
  for (const workspace of workspaces) {
    const wanted = expected.get(workspace) as Expected
    recorded += wanted.sessions.length
    bookmarked += wanted.bookmarks.length
    const found = account(workspace, wanted)
    sessionsLost.push(...found.sessionsLost.map((id) => `${workspace.name}: ${id}`))
    clearedUnread.push(...found.sessionsClearedUnread.map((id) => `${workspace.name}: ${id}`))
    bookmarksLost.push(...found.bookmarksLost.map((token) => `${workspace.name}: ${token}`))
    unreadable.push(...found.unreadable)
    bookmarkIdsTracked ||= found.historyHasBookmarkIds
    for (const file of listFiles(workspace.root)) {
      if (isTempFile(file) || isCorruptFile(file)) leftovers.push(`${workspace.name}: ${file}`)
    }
  }
  removeBase(base)
  return {
    part: 'stops',
    seconds: (performance.now() - started) / 1000,
    rows: [
      { label: 'Stops recorded (exit 0)', value: recorded },
      { label: '★★★ bookmarks added (exit 0)', value: bookmarked },
      {
        label: 'sleep runs (failed)',
        value: `${counts.sleepRuns} (${counts.sleepRunFailures.length})`,
        samples: counts.sleepRunFailures,
      },
      { label: 'sessions lost', value: sessionsLost.length, limit: 0, samples: sessionsLost },
      {
        label: 'sessions cleared unread (in history, closing message not in the brain)',
        value: clearedUnread.length,
        limit: 0,
        samples: clearedUnread,
      },
      { label: 'bookmarks lost', value: bookmarksLost.length, limit: 0, samples: bookmarksLost },
      {
        label: 'unreadable ledger/history',
        value: unreadable.length,
        limit: 0,
        samples: unreadable,
      },
      {
        label: 'Stop exits ≠ 0',
        value: counts.stopExitsNonZero.length,
        limit: 0,
        samples: counts.stopExitsNonZero,
      },
      {
        label: `Stops over ${STOP_TIMEOUT_MS / 1000} s`,
        value: counts.stopsOverTimeout.length,
        limit: 0,
        samples: counts.stopsOverTimeout,
      },
      { label: 'slowest Stop', value: `${counts.maxStopMs.toFixed(0)} ms` },
      { label: 'temp/corrupt files left', value: leftovers.length, limit: 0, samples: leftovers },
      {
        label: '`bookmark add` failures (reported to the user)',
        value: counts.bookmarkFailures.length,
      },
      { label: 'history has bookmark_ids', value: bookmarkIdsTracked ? 'yes' : 'no' },
    ],
  }
}

function describe(run: ProcessRun): string {
  const firstLine = (run.stderr.trim() || run.stdout.trim()).split('\n')[0] ?? ''
  return `exit ${run.code ?? run.signal}: ${firstLine}`
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1))
    ;[items[index], items[other]] = [items[other] as T, items[index] as T]
  }
}
