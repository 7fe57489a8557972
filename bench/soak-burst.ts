/**
 * Soak part (d): issue 18's "no turn lost under load". `stops` Stop hooks (200 by default) start
 * at the same instant in one workspace while CPU burners keep every core busy, each Stop killed
 * at its 5 s Claude Code timeout as Claude Code would. Then one `somnus sleep status` (the next
 * holder of the lock) merges the Stop inbox, one SessionStart (the next session, in the same
 * transcript folder) scores the sessions whose Stop was killed after queueing its pending line and
 * books those whose Stop was killed before it appended anything, and the ledger must hold every
 * session exactly once, each with the score it gets when recorded alone, and the debt their exact
 * sum.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { SOMNUS_HOOKS } from '../src/brain/core/claude-settings.ts'
import { assistant, text, toolResult, toolUse, user } from '../test/support/transcript-lines.ts'
import { type PartResult, progress } from './soak-report.ts'
import {
  createWorkspace,
  type ProcessRun,
  removeBase,
  runHookProcess,
  runSomnus,
  type SoakWorkspace,
  soakBase,
  stopPayload,
} from './soak-support.ts'

/** Sizes of the burst part. */
export interface BurstOptions {
  stops: number
  /** CPU burner processes (default: six per core). */
  burners: number
  /** The least the burners run before the Stops start. */
  warmUpMs: number
  /**
   * Then they run until the 1-minute load average reaches this (issue 18: load ≥ 8 on 2 cores),
   * or `warmUpTimeoutMs` has passed since they started; 0 waits for nothing more.
   */
  targetLoad?: number
  /** The longest the whole warm-up may take (default 120 s). */
  warmUpTimeoutMs?: number
}

const STOP_TIMEOUT_MS = (SOMNUS_HOOKS.find((hook) => hook.verb === 'stop')?.timeout ?? 5) * 1000
/**
 * Writes per transcript shape: scores 1, 2 and 3 (seed 000's change buckets,
 * docs/design/origins.md).
 */
const SHAPES = [1, 5, 10]

/**
 * The default burner count: six per core. The 1-min load average climbs towards the number of
 * runnable processes as 1 − e^(−t/60 s): 12 burners on 2 cores pass 8 after ~66 s, 8 never would.
 */
export function defaultBurners(): number {
  return 6 * availableParallelism()
}

/** Runs the part and returns its counts. */
export async function soakBurst(options: BurstOptions): Promise<PartResult> {
  const started = performance.now()
  const base = soakBase('burst')
  const reference = createWorkspace(base, 'reference')
  const workspace = createWorkspace(base, 'burst')
  // Each shape's score as one Stop alone, on a quiet machine, records it: the exact expectation.
  const expectedByShape = new Map<number, number>()
  for (const writes of SHAPES) {
    const id = `reference-${writes}`
    const path = writeShapedTranscript(reference, id, writes)
    const run = await runHookProcess(reference, 'stop', stopPayload(reference, id, path, id))
    if (run.code !== 0) throw new Error(`the reference Stop failed: ${run.stderr}`)
    const ledger = readLedger(reference)
    const score = ledger.sessions.find((session) => session.session_id === id)?.score
    if (typeof score !== 'number') throw new Error(`the reference Stop booked no score for ${id}`)
    expectedByShape.set(writes, score)
  }
  const sessions = Array.from({ length: options.stops }, (_, index) => {
    // Claude Code names sessions (and their transcripts) by UUID; SessionStart's catch-up of
    // Stops that never ran looks for exactly those names.
    const id = randomUUID()
    const writes = SHAPES[index % SHAPES.length] as number
    const path = writeShapedTranscript(workspace, id, writes)
    return {
      id,
      path,
      label: `burst-${String(index).padStart(4, '0')}`,
      expected: expectedByShape.get(writes) as number,
    }
  })

  const targetLoad = options.targetLoad ?? 0
  const warmUpTimeoutMs = Math.max(options.warmUpMs, options.warmUpTimeoutMs ?? 120_000)
  progress(
    `burst: ${options.burners} CPU burners, warming up ${options.warmUpMs / 1000} s` +
      (targetLoad > 0
        ? `, then until the 1-min load reaches ${targetLoad} (${warmUpTimeoutMs / 1000} s at most)`
        : ''),
  )
  // Each burner stops on its own after the warm-up plus the longest a burst may take (the Stops'
  // 2-minute hang guard): a soak killed meanwhile (a test's timeout) leaves no core spinning.
  const burners = startBurners(options.burners, warmUpTimeoutMs + 150_000)
  let maxLoad = loadavg()[0] as number
  const sampler = setInterval(() => {
    maxLoad = Math.max(maxLoad, loadavg()[0] as number)
  }, 500)
  let runs: ProcessRun[]
  let loadAtStart: number
  let warmUpSeconds: number
  try {
    const warmUpStarted = performance.now()
    await new Promise((resolve) => setTimeout(resolve, options.warmUpMs))
    while (
      (loadavg()[0] as number) < targetLoad &&
      performance.now() - warmUpStarted < warmUpTimeoutMs
    ) {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
    warmUpSeconds = (performance.now() - warmUpStarted) / 1000
    loadAtStart = loadavg()[0] as number
    progress(`burst: ${options.stops} Stops at once, 1-min load ${loadAtStart.toFixed(1)}`)
    runs = await Promise.all(
      sessions.map((session) =>
        runHookProcess(
          workspace,
          'stop',
          stopPayload(workspace, session.id, session.path, session.label),
          STOP_TIMEOUT_MS,
        ),
      ),
    )
  } finally {
    clearInterval(sampler)
    for (const burner of burners) burner.kill('SIGKILL')
  }
  const killedAtTimeout = runs.filter((run) => run.killed).length
  const exitsNonZero = runs.filter((run) => !run.killed && run.code !== 0).length
  const slowest = Math.max(...runs.map((run) => run.ms))
  const inboxPath = join(workspace.root, 'state', '.sleep-inbox.jsonl')
  const queued = existsSync(inboxPath)
    ? readFileSync(inboxPath, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '').length
    : 0

  const status = await runSomnus(workspace, ['sleep', 'status', '--json'])
  // A Stop killed after its first append (its pending line) is booked pending: the next
  // session's SessionStart scores it from its transcript, as it does for any pending session.
  const pendingAfterMerge = readLedger(workspace).sessions.filter(
    (session) => session.score === null,
  ).length
  // The next session starts in the same project: its SessionStart scores the pending sessions
  // and books, a few per start, the ones whose Stop was killed before it could append anything
  // (their transcripts, beside its own). Later sessions book the rest, if any.
  const nextSession = () => {
    const id = randomUUID()
    return runHookProcess(workspace, 'session-start', {
      session_id: id,
      transcript_path: join(workspace.transcripts, `${id}.jsonl`),
      hook_event_name: 'SessionStart',
      source: 'startup',
      cwd: workspace.project,
    })
  }
  const lostNow = () => {
    const known = new Set(readLedger(workspace).sessions.map((session) => session.session_id))
    return sessions.filter((session) => !known.has(session.id)).length
  }
  const lostBeforeStart = lostNow()
  const sessionStart = await nextSession()
  const lostAfterFirstStart = lostNow()
  let laterStarts = 0
  while (lostNow() > 0 && laterStarts < 20) {
    await nextSession()
    laterStarts += 1
  }
  const ledger = readLedger(workspace)
  const found = new Map<string, number[]>()
  for (const session of ledger.sessions) {
    found.set(session.session_id, [...(found.get(session.session_id) ?? []), session.score ?? -1])
  }
  const lost = sessions.filter((session) => !found.has(session.id)).map((session) => session.id)
  const twice = [...found].filter(([, scores]) => scores.length > 1).map(([id]) => id)
  const wrongScore = sessions
    .filter((session) => found.has(session.id))
    .filter((session) => found.get(session.id)?.[0] !== session.expected)
    .map((session) => `${session.id}: ${found.get(session.id)?.[0]} ≠ ${session.expected}`)
  const expectedDebt = sessions.reduce((sum, session) => sum + session.expected, 0)
  removeBase(base)
  return {
    part: 'burst',
    seconds: (performance.now() - started) / 1000,
    rows: [
      { label: 'Stops started at once', value: options.stops },
      { label: 'CPU burners beside them', value: options.burners },
      {
        label: '1-min load average: at the burst, highest',
        value: `${loadAtStart.toFixed(1)}, ${maxLoad.toFixed(1)} on ${availableParallelism()} cores`,
      },
      {
        label: `warm-up (until the 1-min load reached ${targetLoad}, ${warmUpTimeoutMs / 1000} s at most)`,
        value: `${warmUpSeconds.toFixed(0)} s`,
      },
      {
        // Issue 18 demands the burst on a machine at load 8 or more: a run that could not get
        // there says so and fails, rather than passing on a quiet machine.
        label: `1-min load at the burst below ${targetLoad}`,
        value: loadAtStart < targetLoad ? 1 : 0,
        limit: 0,
      },
      { label: 'lines in the live inbox after the burst (not yet merged)', value: queued },
      {
        // The load the soak makes: 200 Stops on 2 busy cores cannot all finish in 5 s. What
        // must hold is that none of them loses its turn (the rows below), not that none is killed.
        label: `Stops killed at the ${STOP_TIMEOUT_MS / 1000} s timeout (the load; information)`,
        value: killedAtTimeout,
      },
      { label: 'Stop exits ≠ 0', value: exitsNonZero, limit: 0 },
      { label: 'slowest Stop', value: `${slowest.toFixed(0)} ms` },
      {
        label: '`sleep status` after the burst (merges the inbox)',
        value: status.code === 0 ? 'exit 0' : `exit ${status.code}`,
      },
      {
        label: 'sessions pending after the merge (killed after queueing)',
        value: pendingAfterMerge,
      },
      {
        label: 'sessions unknown to the ledger (Stop killed before its append)',
        value: lostBeforeStart,
      },
      {
        label: 'next SessionStart (scores pending, books missed sessions)',
        value: sessionStart.code === 0 ? 'exit 0' : `exit ${sessionStart.code}`,
      },
      { label: 'turns lost after the next SessionStart', value: lostAfterFirstStart, limit: 0 },
      { label: 'later SessionStarts needed for the rest', value: laterStarts },
      { label: 'turns lost', value: lost.length, limit: 0, samples: lost },
      { label: 'sessions recorded twice', value: twice.length, limit: 0, samples: twice },
      {
        label: 'sessions with a score ≠ their score alone',
        value: wrongScore.length,
        limit: 0,
        samples: wrongScore,
      },
      {
        label: 'debt: found − exact sum',
        value: Math.abs(ledger.debt - expectedDebt),
        limit: 0,
        samples: [`found ${ledger.debt}, expected ${expectedDebt}`],
      },
      {
        label: 'sessions since last sleep − Stops',
        value: Math.abs(ledger.sessions_since_last_sleep - options.stops),
        limit: 0,
      },
    ],
  }
}

interface LedgerView {
  debt: number
  sessions_since_last_sleep: number
  sessions: { session_id: string; score: number | null }[]
}

function readLedger(workspace: SoakWorkspace): LedgerView {
  const path = join(workspace.root, 'state', '.sleep.json')
  if (!existsSync(path)) return { debt: 0, sessions_since_last_sleep: 0, sessions: [] }
  return JSON.parse(readFileSync(path, 'utf8')) as LedgerView
}

/** A real-format transcript with `writes` Write calls, stamped now (so the session scores). */
function writeShapedTranscript(workspace: SoakWorkspace, sessionId: string, writes: number) {
  const path = join(workspace.transcripts, `${sessionId}.jsonl`)
  const lines = [user(`Split the ${sessionId} loader into ${writes} modules.`)]
  for (let index = 0; index < writes; index += 1) {
    const id = `${sessionId}-t${index}`
    lines.push(
      assistant(`${sessionId}-m${index}`, [
        toolUse(id, 'Write', { file_path: `src/part${index}.ts`, content: 'x' }),
      ]),
      toolResult(id, 'File created'),
    )
  }
  lines.push(assistant(`${sessionId}-end`, [text(`Split ${sessionId}; tests pass.`)]))
  const now = JSON.stringify(new Date().toISOString())
  const stamped = lines.map((line) => line.replace(/"timestamp":"[^"]*"/, `"timestamp":${now}`))
  writeFileSync(path, `${stamped.join('\n')}\n`)
  return path
}

/** `count` processes spinning on a core each until killed, or `lifetimeMs` at most. */
function startBurners(count: number, lifetimeMs: number): ChildProcess[] {
  const script = `const end = Date.now() + ${lifetimeMs}; while (Date.now() < end) {}`
  return Array.from({ length: count }, () => {
    const burner = spawn(process.execPath, ['-e', script], { stdio: 'ignore' })
    // A spawn refused on a crowded machine (EAGAIN, ENOMEM) emits 'error': unheard, it would end
    // the whole soak (exit 1, before any result). One burner less only lowers the load, which
    // the report shows.
    burner.on('error', (error) => progress(`burst: a CPU burner did not start: ${error.message}`))
    return burner
  })
}
