/**
 * `somnus hook <event>` inside the CLI process (tests, unbundled runs). The installed bin sends
 * `hook` to the small bundle `dist/hook.js` instead; both run the same `runHook`.
 */
import type { Command } from 'commander'
import { HOOK_EVENT_HELP } from '../../hooks/hook-input.ts'
import { runHook } from '../../hooks/run-hook.ts'
import type { CliIo } from '../cli-io.ts'

/** Adds `hook <event>` to the program. */
export function register(program: Command, io: CliIo): void {
  const events = Object.entries(HOOK_EVENT_HELP)
    .map(([name, help]) => `  ${name.padEnd(18)}  ${help}`)
    .join('\n')
  program
    .command('hook')
    .description('Run a Claude Code hook: reads the hook JSON on stdin, always exits 0')
    .argument('<event>', `one of: ${Object.keys(HOOK_EVENT_HELP).join(', ')}`)
    .addHelpText('after', `\nEvents:\n${events}\n`)
    .action(async (event: string) => {
      const result = await runHook(event, await io.readStdin(), { cwd: io.cwd, env: io.env })
      if (result.stdout !== '') io.stdout(result.stdout)
    })
}
