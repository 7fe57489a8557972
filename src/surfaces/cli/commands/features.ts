/** `somnus features`: the feature PRDs in `_agent_context/core/features/`. */
import type { Command } from 'commander'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

/** Adds `features` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const features = program
    .command('features')
    .description('Feature PRDs (_agent_context/core/features/*.md)')
  features
    .command('list')
    .description('Every feature: id, status, updated, title and the first line of its Why')
    .option('--json', 'print the features as JSON')
    .action(async (options: { json?: boolean }) => {
      const found = await (await openSomnus(io)).listFeatures()
      if (options.json) {
        printJson(io, found)
        return
      }
      if (found.length === 0) {
        io.stdout('No feature PRDs yet: write them as _agent_context/core/features/<slug>.md.\n')
        return
      }
      const lines = found.flatMap((feature) => {
        const id = feature.id ? ` ${feature.id}` : ''
        const head = `- ${feature.slug}${id} (${feature.status}, updated ${feature.updated ?? '?'}): ${feature.title}`
        return feature.why ? [head, `    Why: ${feature.why}`] : [head]
      })
      io.stdout(`${lines.join('\n')}\n`)
    })
}
