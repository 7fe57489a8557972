/**
 * What the soak's parts share: real processes (the built CLI and hook entry) with a wall-time
 * watch and an optional kill, a bounded pool, `somnus init`-ed temp workspaces, small
 * real-format transcripts and bookmark texts.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HOOK_ENTRY, SOMNUS_BIN } from '../test/support/build-once.ts'
import { assistant, text, toolResult, toolUse, user } from '../test/support/transcript-lines.ts'

/** One finished (or killed) process. */
export interface ProcessRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** Wall time from spawn to close. */
  ms: number
  /** True when our SIGKILL ended it (it had not exited on its own before). */
  killed: boolean
}

/** When to SIGKILL a process: after a delay, or once `ready()` holds (polled each ms), then after `afterMs`. */
export type KillPlan = number | { ready: () => boolean; afterMs: number; giveUpMs: number }

/** Runs `node <args>` in `cwd` with `env`; `stdin` is written then closed; `kill` plans a SIGKILL. */
export function runNode(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string; kill?: KillPlan },
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let killed = false
    child.stdout.on('data', (chunk) => {
      if (stdout.length < 1_000_000) stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 1_000_000) stderr += chunk
    })
    // A hook may exit before reading all of a large stdin: EPIPE is its business, not ours.
    child.stdin.on('error', () => undefined)
    child.stdin.end(options.stdin ?? '')
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) {
        killed = true
        child.kill('SIGKILL')
      }
    }
    const plan = options.kill
    let killer: NodeJS.Timeout | undefined
    if (typeof plan === 'number') killer = setTimeout(kill, plan)
    else if (plan !== undefined) {
      const giveUpAt = performance.now() + plan.giveUpMs
      killer = setInterval(() => {
        if (!plan.ready() && performance.now() < giveUpAt) return
        clearInterval(killer)
        killer = setTimeout(kill, plan.afterMs)
      }, 1)
    }
    // Nothing in the soak should take a minute; one that does is a hang, reported as such.
    const guard = setTimeout(kill, 120_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(killer)
      clearInterval(killer)
      clearTimeout(guard)
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, killed })
    })
  })
}

/** Runs `tasks` with at most `limit` at once; results in task order. */
export async function inPool<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  const lane = async () => {
    while (next < tasks.length) {
      const index = next
      next += 1
      results[index] = await (tasks[index] as () => Promise<T>)()
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane))
  return results
}

/** A small deterministic random source (mulberry32), so a soak can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = state
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

/** A project with an `init`-ed brain, its own HOME, and Claude Code's transcript folder. */
export interface SoakWorkspace {
  name: string
  project: string
  root: string
  home: string
  transcripts: string
  /** The environment every process in this workspace runs with. */
  env: NodeJS.ProcessEnv
}

/** Makes `<base>/<name>/{project,home}` and runs the real `somnus init` there. */
export function createWorkspace(base: string, name: string): SoakWorkspace {
  const dir = join(base, name)
  const project = join(dir, 'project')
  const home = join(dir, 'home')
  const transcripts = join(home, '.claude', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(project, { recursive: true })
  mkdirSync(transcripts, { recursive: true })
  const env = { PATH: process.env.PATH, HOME: home, SOMNUS_QUIET_SKIPS: '1' }
  const init = spawnSync(process.execPath, [SOMNUS_BIN, 'init', project], {
    cwd: project,
    env,
    encoding: 'utf8',
  })
  if (init.status !== 0) throw new Error(`somnus init failed in ${project}: ${init.stderr}`)
  return { name, project, root: join(project, '_agent_context'), home, transcripts, env }
}

/** A fresh base folder for one part's workspaces (real path: macOS /tmp is a symlink). */
export function soakBase(part: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `somnus-soak-${part}-`)))
}

/**
 * Removes a part's folder unless SOMNUS_SOAK_KEEP=1 asks to keep it for inspection. A Stop the
 * burst killed may have started a detached pattern encode that still writes there: after node's
 * retries the folder is left in the temporary folder with a note, never failing the soak.
 */
export function removeBase(base: string): void {
  if (process.env.SOMNUS_SOAK_KEEP === '1') {
    console.log(`  kept ${base}`)
    return
  }
  try {
    rmSync(base, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOTEMPTY' && code !== 'EBUSY') throw error
    console.log(`  left ${base}: a detached writer kept filling it (${code})`)
  }
}

/** Runs `somnus <args>` (the real bin) in the workspace. */
export function runSomnus(
  workspace: SoakWorkspace,
  args: string[],
  kill?: KillPlan,
): Promise<ProcessRun> {
  return runNode([SOMNUS_BIN, ...args], {
    cwd: workspace.project,
    env: workspace.env,
    ...(kill === undefined ? {} : { kill }),
  })
}

/** Runs the hook entry `init` wires (`node dist/hook.cjs <event>`) with `payload` on stdin. */
export function runHookProcess(
  workspace: SoakWorkspace,
  event: string,
  payload: unknown,
  kill?: KillPlan,
): Promise<ProcessRun> {
  return runNode([HOOK_ENTRY, event], {
    cwd: workspace.project,
    env: workspace.env,
    stdin: typeof payload === 'string' ? payload : JSON.stringify(payload),
    ...(kill === undefined ? {} : { kill }),
  })
}

/**
 * Writes a small real-format transcript for `sessionId` (a prompt, Read, Write, Bash and a
 * closing text, all carrying `token`), stamped now: one Write, so the session scores.
 */
export function writeTranscript(
  workspace: SoakWorkspace,
  sessionId: string,
  token: string,
): string {
  const path = join(workspace.transcripts, `${sessionId}.jsonl`)
  const lines = [
    user(`Add the ${token} settings loader; we decided to parse settings with zod.`),
    assistant(`${sessionId}-m1`, [toolUse(`${sessionId}-t1`, 'Read', { file_path: 'src/a.ts' })]),
    toolResult(`${sessionId}-t1`, 'export const a = 1'),
    assistant(`${sessionId}-m2`, [
      toolUse(`${sessionId}-t2`, 'Write', { file_path: `src/${token}.ts`, content: 'x' }),
    ]),
    toolResult(`${sessionId}-t2`, 'File created'),
    assistant(`${sessionId}-m3`, [toolUse(`${sessionId}-t3`, 'Bash', { command: 'npm test' })]),
    toolResult(`${sessionId}-t3`, 'Tests passed'),
    assistant(`${sessionId}-m4`, [text(`Added the ${token} loader; tests pass.`)]),
  ]
  // Stamped now, as Claude Code writes a turn just before its Stop: records older than the last
  // sleep count as consolidated, so a stale stamp would hide the session's work.
  const now = JSON.stringify(new Date().toISOString())
  const stamped = lines.map((line) => line.replace(/"timestamp":"[^"]*"/, `"timestamp":${now}`))
  writeFileSync(path, `${stamped.join('\n')}\n`)
  return path
}

/** A Stop payload as Claude Code sends it, closing with a message that carries `token`. */
export function stopPayload(
  workspace: SoakWorkspace,
  sessionId: string,
  transcriptPath: string,
  token: string,
) {
  return {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: workspace.project,
    hook_event_name: 'Stop',
    permission_mode: 'default',
    stop_hook_active: false,
    last_assistant_message: `Added the ${token} loader and its test.`,
  }
}

/** Bookmark sentences: distinct facts, each given twice with a different number. */
const BOOKMARK_FACTS = [
  'Use Node {n} for the backend service',
  'Do not use Jest for the unit tests of module {n}',
  'Rotate the staging credentials every {n} days',
  'The billing export runs at {n}:00 UTC every night',
  'Never deploy the payments worker on a Friday after {n} pm',
  'Port {n} is reserved for the metrics sidecar',
  'Alice owns the search index rebuild, ticket {n}',
  'Bob approved dropping the legacy CSV importer in sprint {n}',
  'Keep the retry budget at {n} attempts for webhooks',
  'The mobile app pins API version {n}',
]

/**
 * The `index`-th ★★★ bookmark text of a workspace, carrying `token` (a plain word: nothing a
 * redactor could take for a secret). Bookmarks 2k and 2k+1 state one fact with different numbers:
 * two facts, both of which must reach the brain (issue 13, item 3).
 */
export function bookmarkText(token: string, index: number): string {
  const fact = BOOKMARK_FACTS[Math.floor(index / 2) % BOOKMARK_FACTS.length] as string
  return `${token}: ${fact.replace('{n}', String(10 + (index % 90)))}`
}

/** Median of `values` (0 when empty). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** Seconds since `startedMs`, one decimal. */
export function secondsSince(startedMs: number): string {
  return ((performance.now() - startedMs) / 1000).toFixed(1)
}
