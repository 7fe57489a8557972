/**
 * A fuzz worker process: runs its share of the fuzzed inputs in-process through the real hook code
 * (`runHook` with the real file-system dependencies) on a real temp brain, and reports one line
 * per input on stdout, so the parent can watch for hangs and kill and restart it:
 *   `R <index> <verb> <ms> <ok|threw>`, `D <index> <problem>` (ledger damage), `L <index> <log line>`
 *   (an internal error the hook logged), `END`.
 * Usage: node --import tsx bench/soak-fuzz-worker.ts '<json {seed, start, end, folder}>'
 */
import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { runHook } from '../src/surfaces/hooks/run-hook.ts'
import { SOMNUS_BIN } from '../test/support/build-once.ts'
import { isCorruptFile, listFiles } from './soak-brain-files.ts'
import { fuzzInputs, makeFuzzFixture } from './soak-fuzz-inputs.ts'
import { ledgerDamage } from './soak-ledger-damage.ts'

/** Inputs per brain: then it is checked, removed and made again, so the ledger stays small. */
const INPUTS_PER_BRAIN = 2000
/** How often the ledger is checked between brains. */
const CHECK_EVERY = 50

interface WorkerArguments {
  seed: number
  start: number
  end: number
  folder: string
}

const { seed, start, end, folder } = JSON.parse(process.argv[2] ?? '{}') as WorkerArguments
const project = join(folder, 'project')
const home = join(folder, 'home')
const fixture = makeFuzzFixture(folder)
// Relative paths in payloads (`cwd: "relative/folder"`) must resolve inside the temp folder.
process.chdir(folder)

function freshBrain(): void {
  rmSync(join(project, '_agent_context'), { recursive: true, force: true })
  const init = spawnSync(process.execPath, [SOMNUS_BIN, 'init', project], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: home },
    encoding: 'utf8',
  })
  if (init.status !== 0) throw new Error(`somnus init failed: ${init.stderr}`)
}

function report(line: string): void {
  process.stdout.write(`${line.replace(/\s+/g, ' ').slice(0, 400)}\n`)
}

function checkBrain(index: number): void {
  const root = join(project, '_agent_context')
  for (const problem of ledgerDamage(root)) report(`D ${index} ${problem}`)
  for (const file of listFiles(root))
    if (isCorruptFile(file)) report(`D ${index} ${file} set aside`)
}

async function main(): Promise<void> {
  let index = start
  for (const input of fuzzInputs(fixture, seed, start, end - start)) {
    if (index === start || (index - start) % INPUTS_PER_BRAIN === 0) {
      if (index !== start) checkBrain(index - 1)
      freshBrain()
    }
    const began = performance.now()
    let status = 'ok'
    try {
      const result = await runHook(input.verb, input.stdin, { cwd: project, env: { HOME: home } })
      // The never-block net caught a programming error (not a Somnus error naming a fault).
      for (const line of result.log) {
        if (/ failed: (?!SomnusError|[A-Z_]+: )/.test(line)) report(`L ${index} ${line}`)
      }
    } catch (error) {
      status = 'threw'
      report(`L ${index} threw ${error instanceof Error ? error.stack : String(error)}`)
    }
    report(`R ${index} ${input.verb} ${(performance.now() - began).toFixed(1)} ${status}`)
    if ((index - start) % CHECK_EVERY === CHECK_EVERY - 1) checkBrain(index)
    index += 1
  }
  checkBrain(index - 1)
  report('END')
}

await main()
