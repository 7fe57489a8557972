/**
 * End to end with the real Claude Code CLI (2.1.329, the native binary from npm) against a loopback
 * stand-in of the Anthropic Messages API. Claude Code runs the scripted tools, fires our hooks with
 * its real stdin JSON and writes its real transcript; then `somnus sleep status --json` must show
 * the session with exactly the counts the script played.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AgentStep,
  type ClaudeCodeStandIn,
  startClaudeCodeStandIn,
} from '../support/anthropic-stand-in.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { removeTemporary } from '../support/remove-temporary.ts'
import { REPO_ROOT } from '../support/shared-data.ts'
import { referenceAnalysis } from '../support/transcript-reference.ts'

const CLAUDE = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
const HAS_CLAUDE = existsSync(CLAUDE)
const RUN_TIMEOUT_MS = 120_000

if (!HAS_CLAUDE) {
  process.stderr.write(
    `[somnus tests] Claude Code binary not found at ${CLAUDE}: npm install to run the e2e test\n`,
  )
}

const EVENTS = {
  SessionStart: 'session-start',
  Stop: 'stop',
  UserPromptSubmit: 'user-prompt-submit',
  PreCompact: 'pre-compact',
  SessionEnd: 'session-end',
  SubagentStop: 'subagent-stop',
} as const

interface ClaudeRun {
  code: number | null
  stdout: string
  stderr: string
}

function runClaude(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(CLAUDE, args, {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`claude did not finish within ${RUN_TIMEOUT_MS} ms; stderr: ${stderr}`))
    }, RUN_TIMEOUT_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

function somnus(args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, [SOMNUS_BIN, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  })
}

/** `somnus init`, then checks that its settings call our hooks; falls back to writing them. */
function initProject(project: string, env: NodeJS.ProcessEnv): void {
  somnus(['init'], project, env)
  const settingsPath = join(project, '.claude', 'settings.json')
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as {
    hooks?: Record<string, { hooks: { command: string }[] }[]>
  }
  for (const [event, cliName] of Object.entries(EVENTS)) {
    if (event === 'SubagentStop' || event === 'PreCompact') continue
    const commands = (settings.hooks?.[event] ?? []).flatMap((entry) =>
      entry.hooks.map((hook) => hook.command),
    )
    expect(
      commands.some((command) => command.endsWith(` ${cliName}`)),
      `${event} hook in ${settingsPath}`,
    ).toBe(true)
  }
}

function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe.skipIf(!HAS_CLAUDE)('Claude Code 2.1.329 end to end (real CLI, stand-in API)', () => {
  let workspace: string
  let project: string
  let home: string
  let standIn: ClaudeCodeStandIn
  let run: ClaudeRun
  let env: NodeJS.ProcessEnv
  let script: AgentStep[]

  beforeAll(async () => {
    await ensureBuilt()
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-e2e-')))
    project = join(workspace, 'project')
    home = join(workspace, 'home')
    mkdirSync(project)
    mkdirSync(home)
    script = [
      {
        tool: 'Write',
        input: { file_path: join(project, 'notes.md'), content: '# Notes\nfirst\n' },
      },
      { tool: 'Bash', input: { command: 'ls', description: 'List the project' } },
      { tool: 'Read', input: { file_path: join(project, 'notes.md') } },
      {
        tool: 'Edit',
        input: { file_path: join(project, 'notes.md'), old_string: 'first', new_string: 'second' },
      },
      { tool: 'Write', input: { file_path: join(project, 'todo.txt'), content: 'ship it\n' } },
      { tool: 'Bash', input: { command: 'cat todo.txt', description: 'Show the todo' } },
      { text: 'Wrote notes.md and todo.txt, edited notes.md.' },
    ]
    standIn = await startClaudeCodeStandIn(script)
    env = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      ANTHROPIC_BASE_URL: standIn.url,
      ANTHROPIC_API_KEY: 'test-key',
      DISABLE_AUTOUPDATER: '1',
      SOMNUS_QUIET_SKIPS: '1',
    }
    initProject(project, env)
    // Debt 12 from four manual entries: SessionStart must put the CONSOLIDATION REQUIRED directive first.
    for (let index = 0; index < 4; index += 1)
      somnus(['sleep', 'add', '3', `design work ${index}`], project, env)
    run = await runClaude(
      [
        '-p',
        'Write the notes and the todo',
        '--allowedTools',
        'Write Edit Bash Read',
        '--output-format',
        'json',
      ],
      { cwd: project, env },
    )
  }, 300_000)

  afterAll(async () => {
    await standIn?.close()
    // A detached pattern encode started by SessionEnd may still be writing under HOME.
    if (workspace) await removeTemporary(workspace)
  }, 30_000)

  it('runs the scripted agent loop to the end', () => {
    expect(run.code, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout) as {
      result: string
      session_id: string
      num_turns: number
      is_error: boolean
    }
    expect(result.is_error).toBe(false)
    expect(result.result).toBe('Wrote notes.md and todo.txt, edited notes.md.')
    expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe('# Notes\nsecond\n')
    expect(standIn.agentRequests()).toHaveLength(script.length)
  })

  it('records the session with the exact counts of what was played', () => {
    const { session_id: sessionId } = JSON.parse(run.stdout) as { session_id: string }
    // 2 Write + 1 Edit + 2 Bash + 1 Read: 3 changes, 6 tools; seed score max(1, 1) = 1.
    const status = JSON.parse(somnus(['sleep', 'status', '--json'], project, env)) as {
      debt: number
      sessions: {
        session_id: string
        change_count: number
        tool_count: number
        score: number
        last_assistant_message: string
      }[]
    }
    const session = status.sessions.find((entry) => entry.session_id === sessionId)
    expect(session).toMatchObject({ change_count: 3, tool_count: 6, score: 1 })
    expect(session?.last_assistant_message).toBe('Wrote notes.md and todo.txt, edited notes.md.')
    expect(status.sessions[0]?.session_id).toBe(sessionId)
    expect(status.debt).toBe(13)
    // SessionEnd fired as `claude -p` exited (reason "other" in 2.1.329) and kept the score.
    expect(session).toMatchObject({ end_reason: 'other' })

    // Cross-check against the transcript Claude Code wrote, found by id and by the folder rule.
    const sanitized = project.replace(/[^a-zA-Z0-9]/g, '-')
    const transcript = join(home, '.claude', 'projects', sanitized, `${sessionId}.jsonl`)
    expect(
      existsSync(transcript),
      `${transcript} (have: ${readdirSync(join(home, '.claude', 'projects')).join(', ')})`,
    ).toBe(true)
    const counts = referenceAnalysis(readFileSync(transcript, 'utf8'))
    expect(counts).toMatchObject({ tool_count: 6, change_count: 3 })
    expect(counts.tool_counts).toEqual({ Bash: 2, Edit: 1, Read: 1, Write: 2 })
  })

  it('hands the SessionStart context (directive first) to the model and to the transcript', () => {
    const { session_id: sessionId } = JSON.parse(run.stdout) as { session_id: string }
    const sanitized = project.replace(/[^a-zA-Z0-9]/g, '-')
    const records = readJsonl(join(home, '.claude', 'projects', sanitized, `${sessionId}.jsonl`))
    // 2.1.329 records hook output as an `attachment` of type `hook_success` with the stdout.
    const hook = records.find((record) => {
      const attachment = record.attachment as { type?: string; hookEvent?: string } | undefined
      return (
        record.type === 'attachment' &&
        attachment?.type === 'hook_success' &&
        attachment.hookEvent === 'SessionStart'
      )
    })
    const content = (hook?.attachment as { content?: string } | undefined)?.content ?? ''
    expect(content.startsWith('>>> CONSOLIDATION REQUIRED <<<'), content.slice(0, 200)).toBe(true)
    expect(content).toContain('# Agent Context')

    // ...and sends it to the model as a `system` message: "SessionStart:startup hook success: <stdout>".
    const first = standIn.agentRequests()[0]?.body as {
      messages: { role: string; content: { type: string; text?: string }[] | string }[]
    }
    const systemTexts = first.messages
      .filter((message) => message.role === 'system')
      .flatMap((message) =>
        typeof message.content === 'string'
          ? [message.content]
          : message.content.map((block) => block.text ?? ''),
      )
    const delivered = systemTexts.find((text) =>
      text.startsWith('SessionStart:startup hook success: '),
    )
    expect(delivered).toBeDefined()
    expect(delivered).toContain('>>> CONSOLIDATION REQUIRED <<<')
    expect(delivered).toContain('# Agent Context')

    // UserPromptSubmit output arrives the same way: at debt 12 the one-line reminder.
    const reminder = standIn
      .agentRequests()
      .map((request) => JSON.stringify(request.body))
      .find((body) =>
        body.includes('UserPromptSubmit hook success: [somnus] Sleep debt 12 (Must Sleep)'),
      )
    expect(reminder).toBeDefined()
    if (standIn.otherRequests().some((request) => request !== 'HEAD /api/hello')) {
      process.stderr.write(`[e2e] Claude Code also sent: ${standIn.otherRequests().join(', ')}\n`)
    }
  })

  it('leaves no hook failures in the hook log', () => {
    const log = join(project, '_agent_context', 'state', '.somnus-hook.log')
    const text = existsSync(log) ? readFileSync(log, 'utf8') : ''
    expect(text).not.toMatch(/failed/)
  })
})
