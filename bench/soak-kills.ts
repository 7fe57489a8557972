/**
 * Soak part (b): kill -9 of `somnus sleep run` and of hooks (Stop, SessionStart) at random
 * moments, over a few workspaces that always have real work pending (sessions with transcripts,
 * ★★★ bookmarks). After each kill the next command runs normally, as a user's would (`sleep
 * status --json` or a SessionStart hook), and the brain is checked: ledger and history parse, no
 * core file says a line twice, no temp or corrupt files are left behind, nothing recorded is lost.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  duplicatedLines,
  isCorruptFile,
  isTempFile,
  listFiles,
  templateLinesOf,
} from './soak-brain-files.ts'
import { type PartResult, progress } from './soak-report.ts'
import {
  bookmarkText,
  createWorkspace,
  median,
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
import {
  account,
  type Expected,
  printedBookmarkId,
  readHistoryFile,
  readLedgerFile,
} from './soak-verify.ts'

/** Sizes of the kills part. */
export interface KillsOptions {
  kills: number
  seed: number
}

type VictimKind = 'sleep run' | 'stop' | 'session-start'
const KINDS: VictimKind[] = ['sleep run', 'stop', 'session-start']

/** What every lane adds to. */
interface Tally {
  attempts: Record<VictimKind, number>
  landed: Record<VictimKind, number>
  unreadable: string[]
  followUpFailures: string[]
  tempFiles: Set<string>
  /** Seen after a read-only follow-up (`sleep status`), which sweeps nothing: information. */
  tempFilesBeforeRecovery: Set<string>
  corruptFiles: Set<string>
  duplicated: Set<string>
  durations: Record<VictimKind, number[]>
  /** Kills that left a committed journal for the next command to finish. */
  afterCommit: number
}

/** One workspace worked by one lane, with what it must still hold at the end. */
interface Lane {
  workspace: SoakWorkspace
  expected: Expected
  templateLines: Set<string>
  /** Sessions and bookmarks made so far: numbers their ids and tokens. */
  made: number
  /** Bookmarks made so far: picks the next bookmark's fact. */
  bookmarksMade: number
}

/** Runs the part and returns its counts. */
export async function soakKills(options: KillsOptions): Promise<PartResult> {
  const started = performance.now()
  const random = seededRandom(options.seed + 1)
  const laneCount = Math.max(1, Math.min(10, Math.ceil(options.kills / 5)))
  const base = soakBase('kills')
  const tally: Tally = {
    attempts: { 'sleep run': 0, stop: 0, 'session-start': 0 },
    landed: { 'sleep run': 0, stop: 0, 'session-start': 0 },
    unreadable: [],
    followUpFailures: [],
    tempFiles: new Set(),
    tempFilesBeforeRecovery: new Set(),
    corruptFiles: new Set(),
    duplicated: new Set(),
    durations: { 'sleep run': [], stop: [], 'session-start': [] },
    afterCommit: 0,
  }
  const lanes: Lane[] = []
  for (let index = 0; index < laneCount; index += 1) {
    const workspace = createWorkspace(base, `k${index}`)
    const lane = {
      workspace,
      expected: { sessions: [], bookmarks: [] },
      templateLines: templateLinesOf(workspace.root),
      made: 0,
      bookmarksMade: 0,
    }
    lanes.push(lane)
    // Unkilled runs of each kind first: their times set how late a kill may land.
    await replenish(lane, tally, 4)
    tally.durations['session-start'].push((await runHookProcess(workspace, 'session-start', {})).ms)
    tally.durations['sleep run'].push((await runSomnus(workspace, ['sleep', 'run'])).ms)
    await replenish(lane, tally, 4)
  }
  progress(`kills: ${options.kills} kills over ${laneCount} workspaces`)
  let done = 0
  await Promise.all(
    lanes.map(async (lane, laneIndex) => {
      const share =
        Math.floor(options.kills / laneCount) + (laneIndex < options.kills % laneCount ? 1 : 0)
      for (let attempt = 0; attempt < share; attempt += 1) {
        await killOnce(lane, tally, random, attempt)
        done += 1
        if (done % 50 === 0) progress(`kills: ${done}/${options.kills}`)
      }
    }),
  )

  // A last normal run settles whatever a kill left waiting (a journal, a stale lock).
  const sessionsLost: string[] = []
  const clearedUnread: string[] = []
  const bookmarksLost: string[] = []
  const finalFailures: string[] = []
  for (const lane of lanes) {
    const settle = await runSomnus(lane.workspace, ['sleep', 'run'])
    if (settle.code !== 0) finalFailures.push(`${lane.workspace.name}: ${describe(settle)}`)
    const start = await runHookProcess(lane.workspace, 'session-start', { source: 'resume' })
    if (start.code !== 0) finalFailures.push(`${lane.workspace.name}: ${describe(start)}`)
    inspect(lane, tally, 'final', true)
    const found = account(lane.workspace, lane.expected)
    sessionsLost.push(...found.sessionsLost.map((id) => `${lane.workspace.name}: ${id}`))
    clearedUnread.push(...found.sessionsClearedUnread.map((id) => `${lane.workspace.name}: ${id}`))
    bookmarksLost.push(...found.bookmarksLost.map((token) => `${lane.workspace.name}: ${token}`))
  }
  removeBase(base)
  const recorded = lanes.reduce((sum, lane) => sum + lane.expected.sessions.length, 0)
  const bookmarked = lanes.reduce((sum, lane) => sum + lane.expected.bookmarks.length, 0)
  const kindRows = KINDS.map((kind) => ({
    label: `kill -9 of ${kind}: landed mid-run / tried (median run ${median(tally.durations[kind]).toFixed(0)} ms)`,
    value: `${tally.landed[kind]} / ${tally.attempts[kind]}`,
  }))
  return {
    part: 'kills',
    seconds: (performance.now() - started) / 1000,
    rows: [
      {
        label: 'sessions recorded, ★★★ bookmarks added (unkilled)',
        value: `${recorded}, ${bookmarked}`,
      },
      ...kindRows,
      { label: 'kills that left a committed journal', value: tally.afterCommit },
      {
        label: 'unreadable states',
        value: tally.unreadable.length,
        limit: 0,
        samples: tally.unreadable,
      },
      {
        label: 'duplicated lines in core/*.md',
        value: tally.duplicated.size,
        limit: 0,
        samples: [...tally.duplicated],
      },
      {
        label: 'temp files left after the next SessionStart',
        value: tally.tempFiles.size,
        limit: 0,
        samples: [...tally.tempFiles],
      },
      {
        label: 'temp files seen after a read-only `sleep status` (swept later; information)',
        value: tally.tempFilesBeforeRecovery.size,
      },
      {
        label: '*.corrupt-* files',
        value: tally.corruptFiles.size,
        limit: 0,
        samples: [...tally.corruptFiles],
      },
      {
        label: 'next command failed (exit ≠ 0)',
        value: tally.followUpFailures.length + finalFailures.length,
        limit: 0,
        samples: [...tally.followUpFailures, ...finalFailures],
      },
      { label: 'sessions lost', value: sessionsLost.length, limit: 0, samples: sessionsLost },
      {
        label: 'sessions cleared unread (in history, closing message not in the brain)',
        value: clearedUnread.length,
        limit: 0,
        samples: clearedUnread,
      },
      { label: 'bookmarks lost', value: bookmarksLost.length, limit: 0, samples: bookmarksLost },
    ],
  }
}

async function killOnce(lane: Lane, tally: Tally, random: () => number, attempt: number) {
  const { workspace } = lane
  const ledger = readLedgerFile(workspace.root)
  if (typeof ledger === 'string' || (ledger.sessions?.length ?? 0) < 3)
    await replenish(lane, tally, 2)
  const roll = random()
  const kind: VictimKind = roll < 0.5 ? 'sleep run' : roll < 0.8 ? 'stop' : 'session-start'
  // Up to 1.2x a normal run, so most kills land while it works and some just after it ends.
  const delay = Math.round(random() * 1.2 * median(tally.durations[kind]))
  tally.attempts[kind] += 1
  let run: ProcessRun
  if (kind === 'sleep run' && attempt % 4 === 1) {
    // Just past the commit point: the journal is written and the brain's files are being replaced.
    const journal = join(workspace.root, 'state', '.sleep-run.json')
    const plan = {
      ready: () => existsSync(journal),
      afterMs: Math.floor(random() * 4),
      giveUpMs: 3 * median(tally.durations[kind]),
    }
    run = await runSomnus(workspace, ['sleep', 'run'], plan)
  } else if (kind === 'sleep run') {
    run = await runSomnus(workspace, ['sleep', 'run'], delay)
  } else if (kind === 'stop') {
    const made = nextSession(lane)
    run = await runHookProcess(workspace, 'stop', made.payload, delay)
    if (!run.killed && run.code === 0)
      lane.expected.sessions.push({ id: made.sessionId, token: made.token })
  } else {
    run = await runHookProcess(workspace, 'session-start', { source: 'startup' }, delay)
  }
  if (run.killed) tally.landed[kind] += 1
  if (run.killed && existsSync(join(workspace.root, 'state', '.sleep-run.json')))
    tally.afterCommit += 1
  else if (run.code === 0) tally.durations[kind].push(run.ms)
  // Now and then an unkilled run, so the kill window follows how long a run takes on this machine.
  if (kind === 'sleep run' && attempt % 10 === 9) {
    const calibration = await runSomnus(workspace, ['sleep', 'run'])
    if (calibration.code === 0) tally.durations[kind].push(calibration.ms)
    await replenish(lane, tally, 2)
  }

  const followUp =
    attempt % 2 === 0
      ? await runSomnus(workspace, ['sleep', 'status', '--json'])
      : await runHookProcess(workspace, 'session-start', { source: 'resume' })
  if (followUp.code !== 0) {
    tally.followUpFailures.push(`${workspace.name} after killing ${kind}: ${describe(followUp)}`)
  } else if (attempt % 2 === 1) {
    tally.durations['session-start'].push(followUp.ms)
  }
  // Leftovers are swept by the next command that writes (SessionStart, any hook, sleep run);
  // `sleep status` only reads, so what it sees is counted apart.
  inspect(lane, tally, `after kill ${attempt} of ${kind}`, attempt % 2 === 1)
}

/** Records `sessions` Stops and one ★★★ bookmark, unkilled: work the next `sleep run` must keep. */
async function replenish(lane: Lane, tally: Tally, sessions: number): Promise<void> {
  for (let index = 0; index < sessions; index += 1) {
    const made = nextSession(lane)
    const run = await runHookProcess(lane.workspace, 'stop', made.payload)
    if (run.code === 0) {
      lane.expected.sessions.push({ id: made.sessionId, token: made.token })
      tally.durations.stop.push(run.ms)
    }
  }
  const token = `killmark${lane.workspace.name}n${String(lane.made).padStart(5, '0')}x`
  lane.made += 1
  const factIndex = lane.bookmarksMade
  lane.bookmarksMade += 1
  const bookmark = await runSomnus(lane.workspace, [
    'bookmark',
    'add',
    '-s',
    '3',
    bookmarkText(token, factIndex),
  ])
  if (bookmark.code === 0) {
    lane.expected.bookmarks.push({ token, id: printedBookmarkId(bookmark.stdout) })
  }
}

function nextSession(lane: Lane) {
  const { workspace } = lane
  const number = String(lane.made).padStart(5, '0')
  lane.made += 1
  const sessionId = `kill-${workspace.name}-s${number}`
  const token = `killtok${workspace.name}n${number}x`
  const transcript = writeTranscript(workspace, sessionId, token)
  return { sessionId, token, payload: stopPayload(workspace, sessionId, transcript, token) }
}

/** Checks the brain as it is now: parseable state, no duplicates, no leftovers. */
function inspect(lane: Lane, tally: Tally, moment: string, recovered: boolean): void {
  const { root, name } = lane.workspace
  const ledger = readLedgerFile(root)
  const history = readHistoryFile(root)
  if (typeof ledger === 'string') tally.unreadable.push(`${name} ${moment}: ${ledger}`)
  if (typeof history === 'string') tally.unreadable.push(`${name} ${moment}: ${history}`)
  for (const file of listFiles(root)) {
    if (isTempFile(file))
      (recovered ? tally.tempFiles : tally.tempFilesBeforeRecovery).add(join(name, file))
    if (isCorruptFile(file)) tally.corruptFiles.add(join(name, file))
  }
  for (const line of duplicatedLines(root, lane.templateLines))
    tally.duplicated.add(`${name}/${line}`)
}

function describe(run: ProcessRun): string {
  const firstLine = (run.stderr.trim() || run.stdout.trim()).split('\n')[0] ?? ''
  return `exit ${run.code ?? run.signal}: ${firstLine.slice(0, 200)}`
}
