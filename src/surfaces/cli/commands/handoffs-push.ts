/**
 * `somnus handoffs push`: sends this project's sessions to a consolidation service as handoffs,
 * so a team's sessions consolidate in one place. It reads the brain (no SQL loads here).
 */
import { basename, resolve } from 'node:path'
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

interface PushOptions {
  url: string
  key?: string
  keyFile?: string
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
    .option(
      '--key <key>',
      'an API key of your tenant (default: SOMNUS_API_KEY); on the command line it is visible to other users of this machine (ps): prefer SOMNUS_API_KEY or --key-file',
    )
    .option('--key-file <path>', 'read the API key from this file, or from stdin with -')
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

The key: SOMNUS_API_KEY, --key-file (a file holding only the key, or - for stdin) or --key. A
key given with --key is in the process's arguments, which every user of the machine can read
(ps, /proc): use it only on a machine of your own.

Examples:
  SOMNUS_API_KEY=smn_… somnus handoffs push --url https://somnus.example.com --tag team-a
  somnus handoffs push --url http://127.0.0.1:3456 --key-file ~/.config/somnus/key
  pass show somnus | somnus handoffs push --url http://127.0.0.1:3456 --key-file -
  somnus handoffs push --url http://127.0.0.1:3456 --key smn_…
  somnus handoffs push --url http://127.0.0.1:3456 --dry-run`,
    )
    .action(async (options: PushOptions) => {
      await push(io, options)
    })
}

/** The key from --key, --key-file (a file or stdin) or SOMNUS_API_KEY, in that order. */
async function apiKey(io: CliIo, options: PushOptions): Promise<string | undefined> {
  if (options.key !== undefined && options.keyFile !== undefined)
    throw new SomnusError('USAGE', 'Give the API key once: --key or --key-file, not both.')
  if (options.keyFile === undefined) return options.key ?? io.env.SOMNUS_API_KEY
  let text: string
  try {
    text =
      options.keyFile === '-'
        ? await io.readStdin()
        : process.getBuiltinModule('node:fs').readFileSync(resolve(io.cwd, options.keyFile), 'utf8')
  } catch (error) {
    throw new SomnusError(
      'USAGE',
      `Cannot read the API key from ${options.keyFile}: ${error instanceof Error ? error.message : String(error)}.`,
    )
  }
  const key = text.trim()
  if (key === '' || /\s/.test(key))
    throw new SomnusError(
      'USAGE',
      `--key-file ${options.keyFile} must hold one API key (smn_…) and nothing else.`,
    )
  return key
}

async function push(io: CliIo, options: PushOptions): Promise<void> {
  const key = await apiKey(io, options)
  if (!options.dryRun && !key) {
    throw new SomnusError(
      'USAGE',
      'Pass an API key with SOMNUS_API_KEY, --key-file <path> (- for stdin) or --key.',
    )
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
    import('../../../brain/brain-handoffs.ts'),
    import('../../../brain/create-somnus.ts'),
    somnus.getSleepStatus(),
    somnus.getSleepHistory(ALL_HISTORY),
  ])
  const handoffs = brainHandoffs({
    digests: await readDigestDocuments(somnus.brain),
    sessions: status.sessions,
    history,
    tags: options.tag ?? [basename(io.cwd)],
  })
  if (options.dryRun) return printJson(io, handoffs)
  const { pushHandoffs } = await import('../../http/push-handoffs.ts')
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
