/**
 * Temporary projects for hook tests: a `_agent_context/` brain, a fake `$HOME`, and copies of the
 * real Claude Code transcripts (with their `subagents/` folders) laid out as Claude Code does.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach } from 'vitest'
import { runHook } from '../../src/surfaces/hooks/run-hook.ts'
import { removeTemporarySync } from './remove-temporary.ts'
import { TRANSCRIPTS_DIR } from './shared-data.ts'
import { referenceAnalysis } from './transcript-reference.ts'

/** A temporary project with a brain. */
export interface HookWorkspace {
  /** The temporary folder holding everything below (removed by `dispose`). */
  dir: string
  /** The project folder (has `_agent_context/`). */
  project: string
  /** `<project>/_agent_context`. */
  root: string
  /** A fake home folder (`HOME`), for the fallback hook log. */
  home: string
  /** `<home>/.claude/projects/<project slug>`: where copied transcripts go. */
  transcripts: string
  /** The ledger file. */
  ledgerPath: string
  dispose(): void
}

/** The three real main sessions of the shared data set (each with a `subagents/` folder). */
export const REAL_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
] as const

/** Makes a project with an empty brain (`_agent_context/state/`), optionally with `somnus.json`. */
export function createHookWorkspace(
  options: { config?: Record<string, unknown> } = {},
): HookWorkspace {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-hook-')))
  const project = join(dir, 'project')
  const root = join(project, '_agent_context')
  const home = join(dir, 'home')
  const transcripts = join(home, '.claude', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'))
  mkdirSync(join(root, 'state'), { recursive: true })
  mkdirSync(transcripts, { recursive: true })
  if (options.config) {
    writeFileSync(join(root, 'somnus.json'), `${JSON.stringify(options.config, null, 2)}\n`)
  }
  return {
    dir,
    project,
    root,
    home,
    transcripts,
    ledgerPath: join(root, 'state', '.sleep.json'),
    // A detached pattern encode started by a hook may still be writing in the folder.
    dispose: () => removeTemporarySync(dir),
  }
}

/**
 * Copies real session `source` (a name from REAL_SESSIONS or `short`, `subagent`, `tool_heavy`)
 * into the workspace as session `sessionId`, with its `subagents/` folder. Returns the path.
 */
export function copyTranscript(
  workspace: HookWorkspace,
  source: string,
  sessionId: string,
): string {
  const target = join(workspace.transcripts, `${sessionId}.jsonl`)
  cpSync(join(TRANSCRIPTS_DIR, `${source}.jsonl`), target)
  const subagents = join(TRANSCRIPTS_DIR, source, 'subagents')
  if (existsSync(subagents)) {
    cpSync(subagents, join(workspace.transcripts, sessionId, 'subagents'), { recursive: true })
  }
  return target
}

/** Reads the ledger as plain JSON (no schema), as an outside observer would. */
export function readLedger(workspace: HookWorkspace): {
  debt: number
  sessions_since_last_sleep: number
  sessions: Record<string, unknown>[]
  [key: string]: unknown
} {
  return JSON.parse(readFileSync(workspace.ledgerPath, 'utf8'))
}

/**
 * The plain reference count for a transcript and its `subagents/agent-*.jsonl` (summed, as
 * Claude Code keeps each sub-agent's tool calls in its own file), counting only records after
 * `since` when given. Each file is counted by `referenceAnalysis`, the JSON.parse-every-line oracle.
 */
export function referenceCounts(
  transcriptPath: string,
  since?: string,
): { tool_count: number; change_count: number } {
  const files = [transcriptPath]
  const subagents = join(transcriptPath.replace(/\.jsonl$/, ''), 'subagents')
  if (existsSync(subagents)) {
    for (const name of readdirSync(subagents).sort()) {
      // `agent-acompact-*` is the compaction summariser re-reading the main conversation.
      if (
        name.startsWith('agent-') &&
        name.endsWith('.jsonl') &&
        !name.startsWith('agent-acompact-')
      )
        files.push(join(subagents, name))
    }
  }
  let toolCount = 0
  let changeCount = 0
  for (const file of files) {
    const counts = referenceAnalysis(readFileSync(file, 'utf8'), since)
    toolCount += counts.tool_count
    changeCount += counts.change_count
  }
  return { tool_count: toolCount, change_count: changeCount }
}

/** The file name of a path without `.jsonl`. */
export function sessionIdOf(path: string): string {
  return basename(path, '.jsonl')
}

/** A Stop payload as Claude Code 2.1.329 sends it. */
export function stopPayload(
  workspace: HookWorkspace,
  sessionId: string,
  transcriptPath: string,
  message = 'Done.',
) {
  return {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: workspace.project,
    hook_event_name: 'Stop',
    permission_mode: 'default',
    stop_hook_active: false,
    last_assistant_message: message,
  }
}

/** Writes a ledger as a hand-edited file would be (no schema: defaults fill the rest). */
export function writeLedger(workspace: HookWorkspace, ledger: Record<string, unknown>): void {
  writeFileSync(workspace.ledgerPath, JSON.stringify(ledger))
}

/** Manual (`sleep add`) sessions with these scores, stopped at `stoppedAt`. */
export function manualSessions(scores: number[], stoppedAt: Date) {
  return scores.map((score, index) => ({
    session_id: `manual-${index}`,
    transcript_path: null,
    stopped_at: stoppedAt.toISOString(),
    last_assistant_message: `design ${index}`,
    change_count: null,
    tool_count: null,
    score,
    task_slugs: [],
  }))
}

/** The instant hook tests stop the clock at. */
export const HOOK_TEST_NOW = new Date('2026-03-01T12:00:00.000Z')

/**
 * A maker of hook workspaces for one test file: each is disposed after the test that made it.
 * Call once at the top level of the file (it registers an `afterEach`).
 */
export function hookWorkspaces(): (config?: Record<string, unknown>) => HookWorkspace {
  let made: HookWorkspace[] = []
  afterEach(() => {
    for (const created of made) created.dispose()
    made = []
  })
  return (config) => {
    const created = createHookWorkspace(config ? { config } : {})
    made.push(created)
    return created
  }
}

/** Runs `event` in-process in `workspace` with `payload` (an object, or raw stdin text). */
export function runHookIn(
  workspace: HookWorkspace,
  event: string,
  payload: unknown,
  now: Date = HOOK_TEST_NOW,
) {
  const stdin = typeof payload === 'string' ? payload : JSON.stringify(payload)
  return runHook(event, stdin, { cwd: workspace.project, env: { HOME: workspace.home }, now })
}
