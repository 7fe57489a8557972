/** `somnus transcript stats|distill`: exact counts, and a distilled view, of a Claude Code session. */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Command } from 'commander'
import type { Brain } from '../../../brain/index.ts'
import {
  distillTranscript,
  type TranscriptFileAccess,
  type TranscriptSearch,
  type TranscriptStats,
  transcriptFiles,
  transcriptStats,
} from '../../../brain/read-transcripts.ts'
import { isSomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { formatCount } from '../format-count.ts'
import { openSomnus } from '../open-somnus.ts'

/** Adds `transcript stats` and `transcript distill` to the program. */
export function register(program: Command, io: CliIo): void {
  registerTranscriptCommands(program, io, transcriptFiles)
}

/** Same as `register`, reading transcripts through `files` (tests pass their own). */
export function registerTranscriptCommands(
  program: Command,
  io: CliIo,
  files: TranscriptFileAccess,
): void {
  const transcript = program
    .command('transcript')
    .description(
      'Measure or distill a Claude Code session transcript (~/.claude/projects/*/<id>.jsonl)',
    )

  transcript
    .command('stats')
    .description(
      'Exact counts: tool calls (each tool_use id once), changes, messages, tokens, bytes',
    )
    .argument('<path-or-session>', 'a transcript .jsonl path, or a session id to look up')
    .option('--json', 'print every count as JSON')
    .option(
      '--no-subagents',
      'count the main transcript only, not <session>/subagents/agent-*.jsonl',
    )
    .addHelpText(
      'after',
      `
A session id is looked up in the sleep ledger, then under ~/.claude/projects (or
$CLAUDE_CONFIG_DIR/projects). Sub-agent files are folded in; compaction runs are not, nor is
Somnus's own sleep (the somnus-rem-sleep agent and the call that dispatched it): that work is
the consolidation, not work to consolidate.

Examples:
  somnus transcript stats ~/.claude/projects/-home-me-app/4d5611e5-241a-462a-8d15-5122611a9569.jsonl
  somnus transcript stats 4d5611e5-241a-462a-8d15-5122611a9569 --json
  somnus transcript stats session.jsonl --no-subagents
`,
    )
    .action(async (target: string, options: { json?: boolean; subagents: boolean }) => {
      const search = searchFor(io)
      const stats = await transcriptStats(
        { ...search, target, subagents: options.subagents },
        files,
      )
      if (options.json) printJson(io, { ...stats.analysis, files: stats.files })
      else io.stdout(formatStats(stats))
    })

  transcript
    .command('distill')
    .description('Markdown of what matters: prompts, decisions, code changes, errors, bookmarks')
    .argument(
      '<session-or-path>',
      'a session id (ledger, then ~/.claude/projects) or a .jsonl path',
    )
    .option(
      '--since <iso>',
      'leave out records at or before this time (default: the last sleep that consumed the session)',
    )
    .option('--all', 'distill the whole transcript, even parts already consolidated')
    .option('--full', 'keep long prompts, texts, file contents and edits whole')
    .addHelpText(
      'after',
      `
Read, Grep, Glob and web tools are dropped; tool output never counts as a user message; every
failed tool call is listed under "Errors & Issues" with the input that failed.

Examples:
  somnus transcript distill 4d5611e5-241a-462a-8d15-5122611a9569
  somnus transcript distill session.jsonl --since 2026-02-12T16:00:00Z --full
  somnus transcript distill 4d5611e5-241a-462a-8d15-5122611a9569 --all > session.md
`,
    )
    .action(async (target: string, options: { since?: string; all?: boolean; full?: boolean }) => {
      const request = {
        ...searchFor(io),
        target,
        full: options.full === true,
        all: options.all === true,
        ...(options.since === undefined ? {} : { since: options.since }),
      }
      io.stdout((await distillTranscript(request, files)).markdown)
    })
}

/** Where to look for transcripts, and the brain whose ledger may know them (none is fine). */
function searchFor(io: CliIo): TranscriptSearch {
  const home = io.env.HOME ?? homedir()
  const configDir = io.env.CLAUDE_CONFIG_DIR
  let brain: Promise<Brain | null> | undefined
  return {
    cwd: io.cwd,
    home,
    ...(configDir ? { projectsDir: join(configDir, 'projects') } : {}),
    findBrain: () => {
      brain ??= optionalBrain(io)
      return brain
    },
  }
}

/** The brain here, or null when there is none; it is opened (settings read) only when asked for. */
async function optionalBrain(io: CliIo): Promise<Brain | null> {
  try {
    return (await openSomnus(io)).brain
  } catch (error) {
    if (isSomnusError(error) && error.code === 'CONTEXT_NOT_FOUND') return null
    throw error
  }
}

/** The human table of `transcript stats`. */
export function formatStats({ sessionId, files, analysis: a }: TranscriptStats): string {
  const n = formatCount
  const rows: Array<[string, string]> = [
    ['session', sessionId],
    ['transcript', files[0] ?? ''],
    [
      'sub-agents',
      files.length > 1
        ? `${files.length - 1} (${files.slice(1).map(baseName).join(', ')})`
        : 'none',
    ],
    ['bytes', `${n(a.bytes)} in ${n(a.lines)} lines (${n(a.unparsable_lines)} unparsable)`],
    ['time', a.first_timestamp === null ? '-' : `${a.first_timestamp} .. ${a.last_timestamp}`],
    ['changes', `${n(a.change_count)} (Write, Edit, MultiEdit, NotebookEdit)`],
    ['tools', n(a.tool_count)],
  ]
  const tools = Object.entries(a.tool_counts).sort(([, x], [, y]) => y - x)
  const width = Math.max(0, ...tools.map(([name]) => name.length))
  for (const [name, count] of tools)
    rows.push(['', `  ${name.padEnd(width)}  ${n(count).padStart(6)}`])
  rows.push(
    ['messages', `${n(a.assistant_messages)} assistant, ${n(a.user_turns)} human prompts`],
    ['results', `${n(a.tool_results)} tool results, ${n(a.tool_errors)} errors`],
    [
      'tokens',
      `${n(a.novel_tokens)} novel = ${n(a.input_tokens)} input + ${n(a.output_tokens)} output + ${n(a.cache_creation_input_tokens)} cache writes`,
    ],
    ['', `${n(a.cache_read_input_tokens)} cache reads (not novel)`],
    ['text', `${n(a.assistant_chars)} assistant chars, ${n(a.decision_markers)} decision markers`],
    ['tasks', a.task_slug_list.length > 0 ? a.task_slug_list.join(', ') : 'none'],
  )
  if (a.sleep_dispatches + a.sleep_subagent_files > 0) {
    rows.push([
      'left out',
      `Somnus's own sleep: ${n(a.sleep_dispatches)} dispatch(es) of the somnus-rem-sleep agent, ${n(a.sleep_subagent_files)} sub-agent file(s)`,
    ])
  }
  return `${rows.map(([label, value]) => `${label.padEnd(11)} ${value}`.trimEnd()).join('\n')}\n`
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}
