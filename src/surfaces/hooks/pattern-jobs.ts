/**
 * Pattern learning from the hooks (seed 002 items 2, 7, docs/design/origins.md): PreCompact and
 * SessionEnd encode the session; a Stop encodes behind a random gate (10% by default) and
 * consolidates behind another (5%). The work runs in a detached `somnus patterns` process started
 * here, so the hook answers at once; that process appends its failures to the hook log, and the
 * pattern folder's lock keeps two encodes of one session from interleaving.
 */

import { createRandomGate, type PatternSettings } from '../../brain/create-somnus-hooks.ts'
import type { HookEvent, HookInputs } from './hook-input.ts'

/** One detached run: the `somnus` arguments after the CLI entry. */
export type PatternJob = string[]

/** Starts `somnus <args>` detached from the hook (stdio ignored, not waited for). */
export type StartDetached = (
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
) => void

/** The runs this event asks for; [] when patterns are off or the gates say no. */
export function patternJobsFor(
  event: HookEvent,
  input: Partial<HookInputs['stop']> & { reason?: string | null | undefined },
  options: { settings: PatternSettings; cwd: string; hookLog: string; random?: () => number },
): PatternJob[] {
  const { settings } = options
  if (!settings.enabled || !input.session_id) return []
  const common = ['--project', options.cwd, '--hook-log', options.hookLog]
  const encode = input.transcript_path
    ? ['patterns', 'encode', input.transcript_path, '--session', input.session_id, ...common]
    : null
  if (event === 'pre-compact' || event === 'session-end') return encode ? [encode] : []
  if (event !== 'stop' || input.stop_hook_active === true) return []
  const gate = createRandomGate({
    seed: settings.gate_seed,
    // Each turn of a seeded session decides afresh: its closing message differs.
    key: `${input.session_id}\n${input.last_assistant_message ?? ''}`,
    ...(options.random ? { random: options.random } : {}),
  })
  const jobs: PatternJob[] = []
  if (encode && gate('stop-encode', settings.stop_encode_chance)) jobs.push(encode)
  if (gate('stop-consolidate', settings.stop_consolidate_chance))
    jobs.push(['patterns', 'consolidate', ...common])
  return jobs
}

/**
 * The CLI entry to run detached: `SOMNUS_CLI_ENTRY`, else `bin/somnus.js` beside the hook that is
 * running (`<somnus>/dist/hook.cjs` or `<somnus>/bin/somnus.js hook`); null when neither is known.
 */
export function somnusCliEntry(
  env: Record<string, string | undefined>,
  script: string | undefined,
): string | null {
  if (env.SOMNUS_CLI_ENTRY) return env.SOMNUS_CLI_ENTRY
  if (!script) return null
  const path = process.getBuiltinModule('node:path')
  if (/[\\/]bin[\\/]somnus\.js$/.test(script)) return script
  if (/[\\/]dist[\\/]hook(?:-bundle)?\.c?js$/.test(script))
    return path.join(path.dirname(script), '..', 'bin', 'somnus.js')
  return null
}

/** Spawns `node <entry> <args>` detached, so the hook can exit while it runs. */
export const startDetached: StartDetached = (args, options) => {
  // `node_modules/.bin/somnus` and a global `somnus` are links to bin/somnus.js.
  const script = process.argv[1]
  const { realpathSync } = process.getBuiltinModule('node:fs')
  let real = script
  try {
    real = script ? realpathSync(script) : script
  } catch {
    // A script path that cannot be resolved is judged as given.
  }
  const entry = somnusCliEntry(options.env, real)
  // Not run as a hook process (runHook called in-process, as tests and embedders do): there is no
  // CLI beside it to start, and nothing to report; SOMNUS_CLI_ENTRY names one when wanted.
  if (entry === null) return
  const { spawn } = process.getBuiltinModule('node:child_process')
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    detached: true,
    stdio: 'ignore',
  })
  child.on('error', () => {
    // Reported by the missing log line only: the hook has already answered.
  })
  child.unref()
}
