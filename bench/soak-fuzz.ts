/**
 * Soak part (c): fuzzed hook inputs for every event. Most run in-process through the real hook
 * code in worker processes (one per core, each on its own real temp brain), watched for hangs; a
 * sample runs as real hook processes (`node dist/hook.cjs <event>`, payload on stdin) for exit
 * codes. Counted: non-zero exits or thrown errors, runs over the event's hook timeout, ledger
 * damage; and, as information, programming errors the never-block net caught and logged.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { HOOK_ENTRY, SOMNUS_BIN } from '../test/support/build-once.ts'
import { fuzzInputs, HOOK_TIMEOUT_MS, makeFuzzFixture } from './soak-fuzz-inputs.ts'
import { ledgerDamage } from './soak-ledger-damage.ts'
import { type PartResult, progress } from './soak-report.ts'
import { inPool, removeBase, runNode, soakBase } from './soak-support.ts'

/** Sizes of the fuzz part. */
export interface FuzzOptions {
  /** Inputs run in-process. */
  inputs: number
  /** Inputs run as real hook processes. */
  processes: number
  seed: number
}

const WORKER = fileURLToPath(new URL('./soak-fuzz-worker.ts', import.meta.url))
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const WORKERS = 2
/** Silence this long means a hung input: longer than any hook's timeout, with room for load. */
const HANG_MS = Math.max(...Object.values(HOOK_TIMEOUT_MS)) + 20_000

interface FuzzTally {
  runs: number
  threw: string[]
  overTimeout: string[]
  hung: string[]
  damage: string[]
  internalErrors: string[]
  slowestMs: number
}

/** Runs the part and returns its counts. */
export async function soakFuzz(options: FuzzOptions): Promise<PartResult> {
  const started = performance.now()
  const base = soakBase('fuzz')
  const tally: FuzzTally = {
    runs: 0,
    threw: [],
    overTimeout: [],
    hung: [],
    damage: [],
    internalErrors: [],
    slowestMs: 0,
  }
  progress(
    `fuzz: ${options.inputs} inputs in-process over ${WORKERS} workers (seed ${options.seed})`,
  )
  const share = Math.ceil(options.inputs / WORKERS)
  await Promise.all(
    Array.from({ length: WORKERS }, (_, worker) =>
      runShard(
        {
          seed: options.seed,
          start: worker * share,
          end: Math.min(options.inputs, (worker + 1) * share),
        },
        join(base, `worker-${worker}`),
        tally,
      ),
    ),
  )
  const inProcessSeconds = (performance.now() - started) / 1000
  const processes = await processSample(options, join(base, 'processes'))
  removeBase(base)
  return {
    part: 'fuzz',
    seconds: (performance.now() - started) / 1000,
    rows: [
      { label: `inputs in-process (${inProcessSeconds.toFixed(0)} s)`, value: tally.runs },
      {
        label: 'in-process: thrown errors',
        value: tally.threw.length,
        limit: 0,
        samples: tally.threw,
      },
      {
        label: 'in-process: runs over the hook timeout',
        value: tally.overTimeout.length + tally.hung.length,
        limit: 0,
        samples: [...tally.hung, ...tally.overTimeout],
      },
      { label: 'in-process: slowest run', value: `${tally.slowestMs.toFixed(0)} ms` },
      { label: 'ledger damage', value: tally.damage.length, limit: 0, samples: tally.damage },
      {
        label: 'programming errors caught and logged (information)',
        value: tally.internalErrors.length,
        samples: tally.internalErrors,
      },
      { label: 'inputs as hook processes', value: processes.runs },
      {
        label: 'processes: exits ≠ 0',
        value: processes.nonZero.length,
        limit: 0,
        samples: processes.nonZero,
      },
      {
        label: 'processes: over the hook timeout',
        value: processes.overTimeout.length,
        limit: 0,
        samples: processes.overTimeout,
      },
      { label: 'processes: slowest', value: `${processes.slowestMs.toFixed(0)} ms` },
      {
        label: 'processes: ledger damage',
        value: processes.damage.length,
        limit: 0,
        samples: processes.damage,
      },
    ],
  }
}

/** Runs inputs `start..end-1` in worker processes, restarting past an input that hangs. */
async function runShard(
  range: { seed: number; start: number; end: number },
  folder: string,
  tally: FuzzTally,
): Promise<void> {
  let next = range.start
  while (next < range.end) {
    const outcome = await runWorker({ ...range, start: next, folder }, tally)
    if (outcome.finished) return
    // The input after the last reported one hung: count it, and go on after it.
    tally.hung.push(
      `input ${outcome.next} (seed ${range.seed}) gave no answer in ${HANG_MS / 1000} s`,
    )
    next = outcome.next + 1
  }
}

function runWorker(
  argumentsOf: { seed: number; start: number; end: number; folder: string },
  tally: FuzzTally,
): Promise<{ finished: boolean; next: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', WORKER, JSON.stringify(argumentsOf)],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let next = argumentsOf.start
    let finished = false
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 10_000) stderr += chunk
    })
    let watchdog = setTimeout(() => child.kill('SIGKILL'), HANG_MS)
    createInterface({ input: child.stdout }).on('line', (line) => {
      clearTimeout(watchdog)
      watchdog = setTimeout(() => child.kill('SIGKILL'), HANG_MS)
      const [kind, index, ...rest] = line.split(' ')
      if (kind === 'END') finished = true
      else if (kind === 'D') tally.damage.push(`input ${index}: ${rest.join(' ')}`)
      else if (kind === 'L') tally.internalErrors.push(`input ${index}: ${rest.join(' ')}`)
      else if (kind === 'R') {
        const [verb = '', ms = '0', status = ''] = rest
        const milliseconds = Number(ms)
        tally.runs += 1
        next = Number(index) + 1
        tally.slowestMs = Math.max(tally.slowestMs, milliseconds)
        if (status === 'threw') tally.threw.push(`input ${index} (${verb})`)
        if (milliseconds > (HOOK_TIMEOUT_MS[verb] ?? 5000)) {
          tally.overTimeout.push(`input ${index} (${verb}): ${milliseconds} ms`)
        }
        if (tally.runs % 10_000 === 0) progress(`fuzz: ${tally.runs} inputs in-process`)
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(watchdog)
      if (!finished && next === argumentsOf.start && code !== null) {
        reject(new Error(`fuzz worker failed before its first input (exit ${code}): ${stderr}`))
      } else resolve({ finished, next })
    })
  })
}

/** Runs `processes` fuzzed inputs as real hook processes on one brain, a few at once. */
async function processSample(options: FuzzOptions, folder: string) {
  const fixture = makeFuzzFixture(folder)
  const env = { PATH: process.env.PATH, HOME: fixture.home }
  const init = spawnSync(process.execPath, [SOMNUS_BIN, 'init', fixture.project], {
    env,
    encoding: 'utf8',
  })
  if (init.status !== 0) throw new Error(`somnus init failed: ${init.stderr}`)
  progress(`fuzz: ${options.processes} inputs as hook processes`)
  const nonZero: string[] = []
  const overTimeout: string[] = []
  let slowestMs = 0
  // A seed of its own: these inputs are not the in-process ones again.
  const inputs = [...fuzzInputs(fixture, options.seed + 7, 0, options.processes)]
  await inPool(
    4,
    inputs.map((input, index) => async () => {
      const run = await runNode([HOOK_ENTRY, input.verb], {
        cwd: fixture.project,
        env,
        stdin: input.stdin,
      })
      slowestMs = Math.max(slowestMs, run.ms)
      if (run.code !== 0) {
        nonZero.push(
          `input ${index} (${input.verb}): exit ${run.code ?? run.signal} ${run.stderr.split('\n')[0]}`,
        )
      }
      if (run.ms > (HOOK_TIMEOUT_MS[input.verb] ?? 5000)) {
        overTimeout.push(`input ${index} (${input.verb}): ${run.ms.toFixed(0)} ms`)
      }
      if ((index + 1) % 250 === 0) progress(`fuzz: ${index + 1}/${inputs.length} hook processes`)
    }),
  )
  const damage = ledgerDamage(join(fixture.project, '_agent_context'))
  return { runs: inputs.length, nonZero, overTimeout, slowestMs, damage }
}
