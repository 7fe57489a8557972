/**
 * SessionStart on a Claude Code project folder of 100,000 entries (issue 18): the catch-up of
 * missed Stops lists the folder of the session's transcript on the hook path, so it streams it
 * and stops at SIBLING_ENTRIES_READ_MAX entries instead of reading it whole. Each SessionStart
 * runs as Claude Code runs it, a fresh process on the built bundle, timed against an empty folder
 * in the same run (the ratio is the result; the machine's load moves both).
 *
 * Run: `npx tsx bench/big-transcript-folder.ts [path/to/bin/somnus.js]` (default: this build;
 * pass another build's bin to compare). ENTRIES and RUNS from the environment.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureBuilt, SOMNUS_BIN } from '../test/support/build-once.ts'

const ENTRIES = Number(process.env.ENTRIES ?? 100_000)
const RUNS = Number(process.env.RUNS ?? 5)

/** Median milliseconds of RUNS SessionStarts in a project whose transcript folder has `entries`. */
function medianSessionStartMs(bin: string, entries: number): number {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-big-folder-')))
  try {
    const project = join(dir, 'project')
    const home = join(dir, 'home')
    const folder = join(home, '.claude', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'))
    mkdirSync(join(project, '_agent_context', 'state'), { recursive: true })
    mkdirSync(folder, { recursive: true })
    // Empty transcripts written after the brain: each is a missed session to the catch-up.
    for (let index = 0; index < entries; index += 1)
      writeFileSync(join(folder, `${randomUUID()}.jsonl`), '')
    const times: number[] = []
    for (let run = 0; run < RUNS; run += 1) {
      const id = randomUUID()
      const payload = JSON.stringify({
        session_id: id,
        transcript_path: join(folder, `${id}.jsonl`),
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
      })
      const started = performance.now()
      const result = spawnSync(process.execPath, [bin, 'hook', 'session-start'], {
        cwd: project,
        env: { PATH: process.env.PATH, HOME: home },
        input: payload,
      })
      times.push(performance.now() - started)
      if (result.status !== 0) throw new Error(`SessionStart failed: ${result.stderr}`)
    }
    times.sort((a, b) => a - b)
    return times[Math.floor(times.length / 2)] as number
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const bin = process.argv[2] ?? SOMNUS_BIN
if (process.argv[2] === undefined) await ensureBuilt()
const empty = medianSessionStartMs(bin, 0)
const big = medianSessionStartMs(bin, ENTRIES)
console.log(
  `SessionStart median of ${RUNS}: empty folder ${empty.toFixed(0)} ms, ${ENTRIES} entries ${big.toFixed(0)} ms (x${(big / empty).toFixed(2)})`,
)
