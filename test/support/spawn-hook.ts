/**
 * Runs the built hook as Claude Code does, `node bin/somnus.js hook <event>` in a fresh process,
 * timing it to its exit: the lock, stdin and log tests judge a hook by when it lets go.
 */
import { execFileSync, spawn } from 'node:child_process'
import { HOOK_ENTRY, SOMNUS_BIN } from './build-once.ts'
import type { HookWorkspace } from './hook-workspace.ts'

/** What one hook process did. */
export interface HookProcessRun {
  code: number | null
  stdout: string
  stderr: string
  /** Milliseconds from spawn to the process's exit (not to its pipes closing). */
  exitAfterMs: number
}

/** How the hook's stdin is fed. */
export interface HookStdin {
  /** The text written to the pipe. */
  text: string
  /** Keep the pipe open after writing, as a terminal or a stuck parent would; closed at exit. */
  keepOpen?: boolean
}

/** The longest a test lets a hook live before killing it (a hook under test should be gone long before). */
const KILL_AFTER_MS = 30_000

/** Spawns `somnus hook <event>` in `workspace.project` with `HOME` at `workspace.home`. */
export function spawnHook(
  workspace: HookWorkspace,
  event: string,
  stdin: HookStdin,
): Promise<HookProcessRun> {
  const started = Date.now()
  const child = spawn(process.execPath, [SOMNUS_BIN, 'hook', event], {
    cwd: workspace.project,
    env: { PATH: process.env.PATH, HOME: workspace.home },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  child.stdin.on('error', () => undefined)
  if (stdin.keepOpen) child.stdin.write(stdin.text)
  else child.stdin.end(stdin.text)
  const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => {
      const exitAfterMs = Date.now() - started
      clearTimeout(killer)
      child.stdin.destroy()
      // The pipes are read to their end before answering, so stdout is whole.
      child.on('close', () => resolve({ code, stdout, stderr, exitAfterMs }))
    })
  })
}

/** Runs the built SessionStart hook of a fresh session in `project` with `env`, and returns its output. */
export function sessionStartSync(project: string, env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [HOOK_ENTRY, 'session-start'], {
    cwd: project,
    input: JSON.stringify({
      session_id: 'new',
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
    encoding: 'utf8',
    env,
  })
}
