/**
 * Runs one CLI invocation in-process and returns its exit code: 0 ok, 1 error, 2 usage.
 * Command modules load lazily, one per noun, so `somnus sleep debt` never loads the LLM code.
 */
import { Command, CommanderError, Help } from 'commander'
import { environmentFault } from '../../engine/core/environment-fault.ts'
import { isSomnusError } from '../../engine/core/errors.ts'
import { redactDocument } from '../../engine/core/redact-document.ts'
import { type CliIo, helpLayout, type RunCli } from './cli-io.ts'
import { VERSION } from './version.ts'

/**
 * A command module: adds its noun (and verbs) to the program. `runCli` is handed in for a command
 * that runs others (`demo`), so no command module imports this file back.
 */
export interface CommandModule {
  register(program: Command, io: CliIo, runCli: RunCli): void
}

/** Every noun and how to load it; the order here is the order in `somnus --help`. */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  demo: () => import('./commands/demo.ts'),
  init: () => import('./commands/init.ts'),
  sleep: () => import('./commands/sleep.ts'),
  bookmark: () => import('./commands/bookmark.ts'),
  trigger: () => import('./commands/trigger.ts'),
  knowledge: () => import('./commands/knowledge.ts'),
  tasks: () => import('./commands/tasks.ts'),
  core: () => import('./commands/core.ts'),
  features: () => import('./commands/features.ts'),
  snapshot: () => import('./commands/snapshot.ts'),
  transcript: () => import('./commands/transcript.ts'),
  tokens: () => import('./commands/tokens.ts'),
  summarize: () => import('./commands/summarize.ts'),
  hook: () => import('./commands/hook.ts'),
  patterns: () => import('./commands/patterns.ts'),
  worker: () => import('./commands/worker.ts'),
  consolidate: () => import('./commands/consolidate.ts'),
  handoffs: () => import('./commands/handoffs.ts'),
  serve: () => import('./commands/serve.ts'),
  tenant: () => import('./commands/tenant.ts'),
  mind: () => import('./commands/mind.ts'),
  recall: () => import('./commands/recall.ts'),
  mcp: () => import('./commands/mcp.ts'),
  dashboard: () => import('./commands/dashboard.ts'),
}

/** A noun as the top-level help lists it: its name, its help term (`init [options] [dir]`), its description. */
export type CommandSummary = readonly [name: string, term: string, description: string]

/**
 * Every noun's summary, put in the built CLI by scripts/bundle-cli.mjs (from commandSummaries):
 * `somnus --help`, `--version` or an unknown noun then loads no command module at all. Undefined
 * when running from source, which loads them all instead.
 */
declare const SOMNUS_COMMAND_SUMMARIES: readonly CommandSummary[] | undefined

const stdoutLayout = helpLayout(1)
const stderrLayout = helpLayout(2)

/** The exit codes of the CLI (130: stopped by Ctrl-C, as shells report it). */
export const EXIT = { ok: 0, error: 1, usage: 2, interrupted: 130 } as const

/**
 * Runs `somnus <args...>` (without the node and script arguments). Everything a command prints
 * is redacted on its way out: a secret in a task, a recalled transcript or a summarized text
 * never reaches a terminal or a log. `tenant` alone prints a secret on purpose: the new API key,
 * shown once.
 */
export async function runCli(args: string[], outerIo: CliIo): Promise<number> {
  const io: CliIo =
    nounOf(args) === 'tenant'
      ? outerIo
      : {
          ...outerIo,
          stdout: (text) => outerIo.stdout(redactPrinted(text)),
          stderr: (text) => outerIo.stderr(redactPrinted(text)),
        }
  const program = new Command('somnus')
    .description(
      'Sleep for AI agents: track sleep debt, consolidate memory, wake with a small current picture.',
    )
    .version(VERSION, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      getOutHelpWidth: stdoutLayout.width,
      getErrHelpWidth: stderrLayout.width,
      getOutHasColors: stdoutLayout.hasColors,
      getErrHasColors: stderrLayout.hasColors,
    })
    .exitOverride()
  const noun = nounOf(args)
  if (noun !== undefined) await registerCommand(program, io, noun)
  else if (typeof SOMNUS_COMMAND_SUMMARIES !== 'undefined')
    listNouns(program, SOMNUS_COMMAND_SUMMARIES)
  else for (const name of Object.keys(COMMANDS)) await registerCommand(program, io, name)
  for (const command of program.commands) command.exitOverride()
  try {
    await program.parseAsync(args, { from: 'user' })
    return EXIT.ok
  } catch (error) {
    return exitCodeFor(error, io)
  }
}

/** Printed text without a secret; JSON (`--json`) is redacted string by string, so it stays JSON. */
function redactPrinted(text: string): string {
  return redactDocument(/^\s*[[{]/.test(text) ? 'stdout.json' : 'stdout.txt', text)
}

/** The noun the arguments run (`help <noun>` asks for one too); undefined when none is known. */
function nounOf(args: readonly string[]): string | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'))
  const noun = words[0] === 'help' && words.length > 1 ? words[1] : words[0]
  return noun !== undefined && noun in COMMANDS ? noun : undefined
}

async function registerCommand(program: Command, io: CliIo, name: string): Promise<void> {
  const load = COMMANDS[name]
  if (load) (await load()).register(program, io, runCli)
}

/** Lists every noun for the top-level help from its summary, without loading its module. */
function listNouns(program: Command, summaries: readonly CommandSummary[]): void {
  const terms = new Map(summaries.map(([name, term]) => [name, term]))
  for (const [name, , description] of summaries) program.command(name).description(description)
  const standard = new Help()
  program.configureHelp({
    subcommandTerm: (command) => terms.get(command.name()) ?? standard.subcommandTerm(command),
  })
}

/**
 * Every noun's summary, as the top-level help shows it once all command modules are loaded:
 * what scripts/bundle-cli.mjs builds into the CLI.
 */
export async function commandSummaries(): Promise<CommandSummary[]> {
  const program = new Command('somnus')
  // Registering runs no command: the io is never used.
  const io: CliIo = {
    stdout: () => {},
    stderr: () => {},
    readStdin: async () => '',
    cwd: '.',
    env: {},
  }
  for (const name of Object.keys(COMMANDS)) await registerCommand(program, io, name)
  const help = program.createHelp()
  return program.commands.map((command) => [
    command.name(),
    help.subcommandTerm(command),
    help.subcommandDescription(command),
  ])
}

function exitCodeFor(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
      return EXIT.ok
    if (error.code === 'commander.help') return EXIT.ok
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage
  }
  if (isSomnusError(error)) {
    io.stderr(`somnus: ${error.message}\n`)
    if (error.code === 'ABORTED') return EXIT.interrupted
    return error.code === 'USAGE' ? EXIT.usage : EXIT.error
  }
  // A read-only folder or a full disk is the machine's fault, not a bug: one line, no stack.
  const fault = environmentFault(error)
  if (fault) {
    io.stderr(`somnus: ${fault.message}\n`)
    return EXIT.error
  }
  io.stderr(
    `somnus: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  return EXIT.error
}
