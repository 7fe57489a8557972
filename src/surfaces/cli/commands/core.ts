/** `somnus core`: the project record in `_agent_context/core/` (for now: the changelog). */
import type { Command } from 'commander'
import { CHANGE_TYPES } from '../../../engine/core/core-files.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

/** Adds `core` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const core = program.command('core').description('The project record in _agent_context/core/')
  const changelog = core.command('changelog').description('core/CHANGELOG.json, newest first')
  changelog
    .command('add')
    .description('Put a dated entry at the top of core/CHANGELOG.json')
    .argument('<message...>', 'what changed')
    .option('--type <type>', `one of ${CHANGE_TYPES.join(', ')}`, 'feat')
    .option('--json', 'print the entry as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  somnus core changelog add "Token refresh retries once on 401" --type fix',
    )
    .action(async (message: string[], options: { type: string; json?: boolean }) => {
      const entry = await (await openSomnus(io)).addChangelog({
        message: message.join(' '),
        type: options.type,
      })
      if (options.json) printJson(io, entry)
      else
        io.stdout(`Added to core/CHANGELOG.json: ${entry.date} [${entry.type}] ${entry.message}\n`)
    })
}
