/**
 * `somnus demo`: one full sleep cycle in a throw-away workspace, with no network and no API key.
 * It runs the real commands and hooks in-process and prints each one with its output, so the demo
 * doubles as a tour of the CLI.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Command } from 'commander'
import { somnusCliCommand } from '../../../brain/brain-values.ts'
import { runHook } from '../../hooks/run-hook.ts'
import type { CliIo, RunCli } from '../cli-io.ts'
import { findPackageRoot } from './init.ts'

/** Adds `demo`. */
export function register(program: Command, io: CliIo, runCli: RunCli): void {
  program
    .command('demo')
    .description('Run a full sleep cycle in a temporary workspace, offline, and show every step')
    .option('--keep', 'keep the workspace afterwards and print where it is')
    .addHelpText(
      'after',
      `
The demo creates a project, runs somnus init, replays three real Claude Code sessions (bundled
transcripts recorded from the Claude Code CLI) through the Stop hook, bookmarks a critical fact,
shows the debt and what the next session would be told, consolidates with the offline model
(first as a dry run), and shows the brain afterwards. Nothing outside the temp folder is touched.

Example:
  npx somnus demo --keep`,
    )
    .action(async (options: { keep?: boolean }) => {
      await runDemo(io, runCli, options.keep === true)
    })
}

async function runDemo(io: CliIo, runCli: RunCli, keep: boolean): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'somnus-demo-'))
  const project = join(workspace, 'acme-api')
  mkdirSync(project)
  const env = {
    ...io.env,
    HOME: join(workspace, 'home'),
    SOMNUS_CONTEXT_DIR: join(project, '_agent_context'),
  }
  // The hooks run as the installed ones do: with this package's plugin folder and command, so
  // the sleep agent `init` installs is recognised as Somnus's own.
  const packageRoot = findPackageRoot()
  const hookContext = {
    cwd: project,
    env,
    pluginDir: join(packageRoot, 'plugin'),
    somnusCommand: somnusCliCommand(process.execPath, packageRoot),
  }
  const step = (title: string) => io.stdout(`\n── ${title}\n`)
  const somnus = async (...args: string[]) => {
    io.stdout(`$ somnus ${args.map(quote).join(' ')}\n`)
    let output = ''
    const code = await runCli(args, {
      ...io,
      cwd: project,
      env,
      stdout: (text) => {
        output += text
      },
      stderr: (text) => {
        output += text
      },
      readStdin: async () => '',
    })
    io.stdout(indent(output))
    if (code !== 0) throw new Error(`somnus ${args.join(' ')} exited ${code}`)
    return output
  }
  try {
    io.stdout(`Somnus demo in ${workspace}\n`)
    step('1. Create the brain and wire the Claude Code hooks')
    await somnus('init', project)

    step('2. Three Claude Code sessions end: the Stop hook scores each from its real transcript')
    const transcripts = copyTranscripts(join(workspace, 'home/.claude/projects/-demo-acme-api'))
    for (const transcript of transcripts) {
      const payload = {
        session_id: transcript.sessionId,
        transcript_path: transcript.path,
        cwd: project,
        hook_event_name: 'Stop',
        stop_hook_active: false,
        last_assistant_message: transcript.lastMessage,
      }
      io.stdout(`stop hook ← {"session_id":"${transcript.sessionId}", ...}\n`)
      await runHook('stop', JSON.stringify(payload), hookContext)
    }
    await somnus('sleep', 'add', '3', 'Long design review of the caching plan with the user')
    await somnus('bookmark', 'add', 'Never log API keys, even in debug mode', '-s', '3')
    await somnus('sleep', 'status')

    step(
      '3. The next session starts: the SessionStart hook prints the directive, then the snapshot',
    )
    const start = await runHook(
      'session-start',
      JSON.stringify({
        session_id: 'next',
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
      hookContext,
    )
    io.stdout(indent(headOf(start.stdout, 30)))

    step('4. Sleep: first the plan as a diff, then the consolidation (offline extractive model)')
    await somnus('sleep', 'run', '--dry-run')
    await somnus('sleep', 'run')

    step('5. Awake: debt is back to zero and the brain holds what mattered, with its sources')
    await somnus('sleep', 'status')
    io.stdout(`$ sed -n '/## Active Memory/,$p' _agent_context/core/2.memory.md\n`)
    io.stdout(
      indent(
        fromHeading(
          readFileSync(join(project, '_agent_context/core/2.memory.md'), 'utf8'),
          '## Active Memory',
        ),
      ),
    )
    // Each session is kept whole as a digest; the next SessionStart lists them by one line each.
    const sessions = join(project, '_agent_context/knowledge/sessions')
    const digests = existsSync(sessions) ? readdirSync(sessions).sort() : []
    io.stdout(`$ ls _agent_context/knowledge/sessions/\n${indent(`${digests.join('\n')}\n`)}`)
    const last = digests.at(-1)
    if (last) {
      io.stdout(`$ cat _agent_context/knowledge/sessions/${last}\n`)
      io.stdout(indent(readFileSync(join(sessions, last), 'utf8')))
    }
    await somnus('sleep', 'history')
    await somnus('sleep', 'run')
    io.stdout(
      keep
        ? `\nWorkspace kept: ${workspace}\n`
        : '\nDone. (Run with --keep to look around the workspace.)\n',
    )
  } finally {
    if (!keep) rmSync(workspace, { recursive: true, force: true })
  }
}

/** Copies the bundled transcripts where Claude Code would keep them, with their ids and last answers. */
function copyTranscripts(folder: string) {
  mkdirSync(folder, { recursive: true })
  // Found from the package root: the CLI runs from a bundle, whose files sit elsewhere than these.
  const transcripts = join(findPackageRoot(), 'templates', 'demo')
  return readdirSync(transcripts)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(transcripts, name), 'utf8')
      const records = text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      const sessionId = String(
        records.find((record) => typeof record.sessionId === 'string')?.sessionId,
      )
      const path = join(folder, `${sessionId}.jsonl`)
      cpSync(join(transcripts, name), path)
      return { sessionId, path, lastMessage: lastAssistantText(records) }
    })
}

function lastAssistantText(records: Record<string, unknown>[]): string {
  for (const record of records.toReversed()) {
    if (record.type !== 'assistant') continue
    const content =
      (record.message as { content?: { type: string; text?: string }[] }).content ?? []
    const text = content.find((block) => block.type === 'text')?.text
    if (text) return text
  }
  return ''
}

function quote(arg: string): string {
  return /^[\w./:@=-]+$/.test(arg) ? arg : `"${arg}"`
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
    .concat('\n')
}

function headOf(text: string, lines: number): string {
  const all = text.split('\n')
  return all.length <= lines
    ? text
    : `${all.slice(0, lines).join('\n')}\n… (${all.length - lines} more lines)`
}

function fromHeading(text: string, heading: string): string {
  const index = text.indexOf(heading)
  return index < 0 ? text : text.slice(index)
}
