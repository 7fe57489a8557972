/**
 * `somnus handoffs push`: sends this project's sessions to a consolidation service as handoffs,
 * so a team's sessions consolidate in one place. It reads the brain (no SQL loads here).
 */
import { basename } from 'node:path'
import type { Command } from 'commander'
import { SomnusError } from '../../../core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

interface PushOptions {
  url: string
  key?: string
  tag?: string[]
  dryRun?: boolean
  json?: boolean
}

/** Every past consolidation the history keeps (it is capped far below this). */
const ALL_HISTORY = 10_000

/** Adds `push` to the `handoffs` command (made here if no other module made it yet). */
export function register(program: Command, io: CliIo): void {
  const handoffs =
    program.commands.find((command) => command.name() === 'handoffs') ??
    program.command('handoffs').description('Handoffs of the consolidation service')
  handoffs
    .command('push')
    .description("Send this project's sessions to a consolidation service as handoffs")
    .requiredOption('--url <url>', 'the service, e.g. http://127.0.0.1:3456')
    .option('--key <key>', 'an API key of your tenant (default: SOMNUS_API_KEY)')
    .option('--tag <tag...>', 'tags for every handoff (default: the project folder name)')
    .option('--dry-run', 'print the handoffs instead of sending them')
    .option('--json', 'print what was sent, skipped and failed as JSON')
    .addHelpText(
      'after',
      `
One handoff per session: its digest (knowledge/sessions/, written by somnus sleep run) when the
brain has one, else its ledger entry (Claude's closing message), plus one per past consolidation
(its summary). Ids come from the session ids, so pushing again sends only what is new; a session
pushed from the ledger is not sent again once digested, so push after a sleep for the richest
handoffs.

Examples:
  somnus handoffs push --url http://127.0.0.1:3456 --key smn_…
  SOMNUS_API_KEY=smn_… somnus handoffs push --url https://somnus.example.com --tag team-a
  somnus handoffs push --url http://127.0.0.1:3456 --dry-run`,
    )
    .action(async (options: PushOptions) => {
      await push(io, options)
    })
}

async function push(io: CliIo, options: PushOptions): Promise<void> {
  const key = options.key ?? io.env.SOMNUS_API_KEY
  if (!options.dryRun && !key) {
    throw new SomnusError('USAGE', 'Pass an API key with --key (or SOMNUS_API_KEY).')
  }
  try {
    new URL(options.url)
  } catch {
    throw new SomnusError(
      'USAGE',
      `--url must be a URL like http://127.0.0.1:3456 (got "${options.url}").`,
    )
  }
  const somnus = await openSomnus(io)
  const [{ brainHandoffs }, { readDigestDocuments }, status, history] = await Promise.all([
    import('../../../core/push/brain-handoffs.ts'),
    import('../../../app/read-digest-documents.ts'),
    somnus.sleepStatus(),
    somnus.sleepHistory(ALL_HISTORY),
  ])
  const handoffs = brainHandoffs({
    digests: await readDigestDocuments(somnus.brain),
    sessions: status.sessions,
    history,
    tags: options.tag ?? [basename(io.cwd)],
  })
  if (options.dryRun) return printJson(io, handoffs)
  const { pushHandoffs } = await import('../../../app/push-handoffs.ts')
  const result = await pushHandoffs(handoffs, {
    url: options.url,
    key: key as string,
    fetch: globalThis.fetch,
  })
  if (options.json) printJson(io, result)
  else {
    io.stdout(
      `Sent ${result.sent.length} handoff(s), ${result.skipped.length} already there, ${result.failed.length} failed.\n`,
    )
    for (const failed of result.failed)
      io.stderr(`somnus: ${failed.handoff_id}: ${failed.status} ${failed.message}\n`)
  }
  if (result.failed.length > 0) {
    throw new SomnusError('INVALID_INPUT', `${result.failed.length} handoff(s) were not accepted.`)
  }
}
