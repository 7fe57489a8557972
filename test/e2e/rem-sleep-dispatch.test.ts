/**
 * The sleep Claude Code runs itself, as a user installs Somnus: the packed tarball installed with
 * `npm i -D` (no `somnus` on PATH), `npx somnus init`, debt above the threshold and a critical
 * bookmark. The real Claude Code CLI runs against a loopback Messages-API stand-in that plays the
 * main agent dispatching the `somnus-rem-sleep` sub-agent, then the sub-agent running the commands
 * its prompt names (read from the installed agent file). Afterwards the debt is 0 and the sleep is
 * in the history.
 *
 * Seen from Claude Code 2.1.329: the sub-agent list reaches the model in a `system` message of the
 * main conversation ("- somnus-rem-sleep: Consolidates the project's brain..."), and the tool that
 * dispatches it is `Agent` (`subagent_type`); the Agent tool's description only says the types are
 * "listed in messages from the system". The sub-agent is a separate conversation whose system
 * prompt is the agent file's body, with only the tools its frontmatter grants that exist here.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClaudeCodeStandIn, startClaudeCodeStandIn } from '../support/anthropic-stand-in.ts'
import { installPacked, PATH_WITHOUT_SOMNUS, packedTarball } from '../support/packed-install.ts'
import { type ClaudeRun, HAS_CLAUDE, runClaude } from '../support/run-claude.ts'
import {
  bareSomnusCommands,
  commandsIn,
  fillPlaceholders,
  placeholdersOf,
} from '../support/somnus-commands.ts'
import type { RecordedRequest } from '../support/stand-in-server.ts'

const AGENT_FILE = '.claude/agents/somnus-rem-sleep.md'
const SUMMARY = 'Folded the critical token-storage bookmark into memory'
const REPORT = 'Consolidated the brain; debt reset. The session continues as before.'

interface Block {
  type: string
  text?: string
  id?: string
  name?: string
  input?: Record<string, unknown>
  tool_use_id?: string
  content?: string | Block[]
  is_error?: boolean
}
interface MessagesBody {
  system?: string | Block[]
  messages: { role: string; content: string | Block[] }[]
  tools?: { name: string; description?: string; input_schema?: unknown }[]
}

const bodyOf = (request: RecordedRequest) => request.body as MessagesBody
const blocksOf = (content: string | Block[] | undefined): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : (content ?? [])
const systemText = (request: RecordedRequest) =>
  blocksOf(bodyOf(request).system)
    .map((block) => block.text ?? '')
    .join('\n')
/** Every text the model was shown in the conversation: messages and tool results. */
const conversationText = (request: RecordedRequest) =>
  bodyOf(request)
    .messages.flatMap((message) => blocksOf(message.content))
    .flatMap((block) => [block.text ?? '', ...blocksOf(block.content).map((b) => b.text ?? '')])
    .join('\n')
/** The sub-agent's requests carry its prompt (the agent file's body) as their system prompt. */
const isSubAgent = (request: RecordedRequest) =>
  systemText(request).includes('REM-sleep consolidator')

/** The tool results of a request's conversation, by tool_use id. */
function toolResults(request: RecordedRequest): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>()
  for (const message of bodyOf(request).messages) {
    for (const block of blocksOf(message.content)) {
      if (block.type !== 'tool_result' || !block.tool_use_id) continue
      const text = blocksOf(block.content)
        .map((part) => part.text ?? '')
        .join('\n')
      results.set(block.tool_use_id, { text, isError: block.is_error === true })
    }
  }
  return results
}

interface LedgerView {
  debt: number
  bookmarks: number
  history: { summary?: string }[]
}

describe.skipIf(!HAS_CLAUDE)('the rem-sleep sub-agent, dispatched by real Claude Code', () => {
  let workspace: string
  let project: string
  let env: NodeJS.ProcessEnv
  let somnus: string
  let standIn: ClaudeCodeStandIn
  let run: ClaudeRun
  /** The sub-agent's Bash commands, in the order its prompt names them. */
  let sleepCommands: string[]
  /** The ledger as the main agent's next turn found it, right after the sub-agent reported. */
  let afterSleep: LedgerView | null = null

  const cli = (args: string) =>
    execFileSync('bash', ['-c', `${somnus} ${args}`], { cwd: project, env, encoding: 'utf8' })
  const ledger = (): LedgerView => ({
    debt: JSON.parse(cli('sleep status --json')).debt,
    bookmarks: JSON.parse(cli('bookmark list --json')).length,
    history: JSON.parse(cli('sleep history --json')),
  })

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-rem-sleep-e2e-')))
    project = join(workspace, 'my-app')
    const home = join(workspace, 'home')
    mkdirSync(home)
    const install = installPacked(project, await packedTarball())
    somnus = `"${process.execPath}" "${install.packageRoot}/bin/somnus.js"`
    const base = {
      PATH: PATH_WITHOUT_SOMNUS,
      HOME: home,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    }
    env = base
    execFileSync('bash', ['-c', 'npx somnus init'], { cwd: project, env, encoding: 'utf8' })
    // Pattern learning (its own e2e) would start detached encodes at SessionEnd that outlive
    // the session and race the clean-up; this test is about the sleep.
    writeFileSync(
      join(project, '_agent_context', 'somnus.json'),
      `${JSON.stringify({ patterns: { enabled: false } })}\n`,
    )
    const claudeEnv = (url: string) => ({
      ...base,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'test-key',
      DISABLE_AUTOUPDATER: '1',
    })
    // A first session with real work and a real transcript, then more debt and a ★★★ bookmark.
    const work = await startClaudeCodeStandIn([
      { tool: 'Write', input: { file_path: join(project, 'auth.md'), content: '# Auth\n' } },
      { text: 'Wrote auth.md: tokens live in an httpOnly cookie.' },
    ])
    const first = await runClaude(
      ['-p', 'Write the auth notes', '--allowedTools', 'Write', '--output-format', 'json'],
      { cwd: project, env: claudeEnv(work.url) },
    )
    await work.close()
    expect(first.code, first.stderr).toBe(0)
    const workSession = (JSON.parse(first.stdout) as { session_id: string }).session_id
    for (let index = 0; index < 4; index += 1) cli(`sleep add 3 "design work ${index}"`)
    cli('bookmark add -s 3 "Auth tokens never go to localStorage: XSS can read it"')

    // The sub-agent runs what its installed prompt names, in order: the protocol (not the
    // "offline alternative"), every command whose placeholders are free text it can fill in.
    const agentText = readFileSync(join(project, AGENT_FILE), 'utf8')
    const protocol = agentText.slice(0, agentText.indexOf('## Offline alternative'))
    sleepCommands = [...new Set(commandsIn(protocol, somnus))]
      .filter((command) =>
        placeholdersOf(command).every((name) => name === 'session_id' || !/id$|slug/.test(name)),
      )
      .map((command) =>
        fillPlaceholders(command, (name) => {
          if (name === 'session_id') return workSession
          return name.includes('summary') ? SUMMARY : `e2e ${name.replace(/[^a-z ]/gi, '')}`
        }),
      )

    standIn = await startClaudeCodeStandIn((request, step) => {
      if (isSubAgent(request)) {
        const command = sleepCommands[step]
        if (command === undefined) return { text: REPORT }
        return {
          tool: 'Bash',
          id: `toolu_sleep_${String(step).padStart(2, '0')}`,
          input: { command, description: `Somnus step ${step}` },
        }
      }
      if (step === 0) {
        return {
          tool: 'Agent',
          id: 'toolu_dispatch_sleep',
          input: {
            description: 'Consolidate the brain',
            prompt: 'Brief: four design sessions and one critical bookmark await consolidation.',
            subagent_type: 'somnus-rem-sleep',
            run_in_background: false,
          },
        }
      }
      // The sub-agent has reported: what does the ledger say before this session's own turn is booked?
      if (afterSleep === null && conversationText(request).includes(REPORT)) afterSleep = ledger()
      return { text: 'The brain is consolidated; carrying on.' }
    })
    env = claudeEnv(standIn.url)
    run = await runClaude(
      [
        '-p',
        'Start the session',
        '--allowedTools',
        'Agent Bash Read Write Edit',
        '--output-format',
        'json',
      ],
      { cwd: project, env, timeoutMs: 240_000 },
    )
  }, 400_000)

  afterAll(async () => {
    await standIn?.close()
    // A detached pattern encode started by SessionEnd may still be writing under HOME.
    if (workspace)
      rmSync(workspace, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  })

  const mainRequests = () => standIn.agentRequests().filter((request) => !isSubAgent(request))
  const subAgentRequests = () => standIn.agentRequests().filter(isSubAgent)

  it('runs the session to the end', () => {
    expect(run.code, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout) as { is_error: boolean; result: string }
    expect(result.is_error).toBe(false)
    expect(result.result).toBe('The brain is consolidated; carrying on.')
  })

  it('tells the main agent, at SessionStart, to dispatch the sub-agent, with commands that run here', () => {
    const first = mainRequests()[0]
    expect(first).toBeDefined()
    const shown = [systemText(first as RecordedRequest), conversationText(first as RecordedRequest)]
    const context = shown.join('\n')
    expect(context).toContain('>>> CONSOLIDATION REQUIRED <<<')
    expect(context).toContain('critical (★★★) bookmark')
    expect(context).toContain('Dispatch the somnus-rem-sleep sub-agent')
    expect(context).toContain(`\`${somnus} sleep start\``)
    expect(bareSomnusCommands(context)).toEqual([])
  })

  it('shows the installed agent to the model, and the Agent tool to dispatch it', () => {
    const first = mainRequests()[0] as RecordedRequest
    const agentTool = bodyOf(first).tools?.find((tool) => tool.name === 'Agent')
    expect(JSON.stringify(agentTool?.input_schema)).toContain('subagent_type')
    // 2.1.329 lists the agent types in a system message, each as "- <name>: <description>".
    const listing = [systemText(first), conversationText(first)].join('\n')
    expect(listing).toMatch(/- somnus-rem-sleep: Consolidates the project's brain/)
  })

  it('runs the sub-agent on the installed prompt, every command it names succeeding', () => {
    const requests = subAgentRequests()
    expect(requests.length).toBe(sleepCommands.length + 1)
    // Its prompt is the installed file (this install's command), not the plugin's.
    expect(systemText(requests[0] as RecordedRequest)).toContain(`\`${somnus} sleep start\``)
    expect(sleepCommands[0]).toBe(`${somnus} sleep start`)
    expect(sleepCommands.at(-1)).toBe(`${somnus} sleep done "${SUMMARY}"`)
    expect(sleepCommands.length).toBeGreaterThanOrEqual(7)
    expect(sleepCommands.some((command) => command.includes('transcript distill'))).toBe(true)
    const results = toolResults(requests.at(-1) as RecordedRequest)
    sleepCommands.forEach((command, step) => {
      const result = results.get(`toolu_sleep_${String(step).padStart(2, '0')}`)
      expect(result, command).toBeDefined()
      expect(result?.isError, `${command}\n${result?.text}`).toBe(false)
      expect(result?.text).not.toMatch(/command not found|No such file/)
    })
    const done = results.get(`toolu_sleep_${String(sleepCommands.length - 1).padStart(2, '0')}`)
    expect(done?.text).toMatch(/debt/i)
  })

  it('leaves the debt at 0, the bookmark consolidated and the sleep in the history, after the session too', () => {
    expect(afterSleep).toMatchObject({ debt: 0, bookmarks: 0 })
    expect(afterSleep?.history[0]?.summary).toBe(SUMMARY)
    // Then the session ends: its Stop and SessionEnd book what it did, which was only the sleep
    // (the dispatch and the sub-agent's commands). That is the consolidation, not work to
    // consolidate, so the debt stays 0 and the sleep stays in the history.
    const now = ledger()
    expect(now).toMatchObject({ debt: 0, bookmarks: 0 })
    expect(now.history).toHaveLength(1)
    expect(now.history[0]?.summary).toBe(SUMMARY)
    const { session_id: sessionId } = JSON.parse(run.stdout) as { session_id: string }
    const stats = JSON.parse(cli(`transcript stats ${sessionId} --json`)) as {
      tool_count: number
      sleep_dispatches: number
      sleep_subagent_files: number
    }
    expect(stats).toMatchObject({ tool_count: 0, sleep_dispatches: 1, sleep_subagent_files: 1 })
  })
})
