/**
 * Recall through the real Claude Code CLI (2.1.329) against the loopback stand-in of the Messages
 * API, configured only by what `somnus init` wrote (hooks in .claude/settings.json, the MCP server
 * in .mcp.json; the one thing added is the user's approval of the project's MCP servers, which
 * Claude Code asks a person for). The scripted model calls `recall`; the tool's answer must reach
 * the model in its next request. The prompt hook's memory lines must reach it with the prompt.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClaudeCodeStandIn, startClaudeCodeStandIn } from '../support/anthropic-stand-in.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { HAS_CLAUDE, runClaude } from '../support/run-claude.ts'

const FACT = 'The staging deploy needs the VPN up first; without it the rsync step hangs.'
const PLACE = '_agent_context/knowledge/deploys.md:8'

type Message = {
  role: string
  content: string | { type: string; text?: string; content?: unknown; tool_use_id?: string }[]
}

/** Every text in a request's messages: text blocks, tool results (string or blocks), plain strings. */
function textsOf(body: unknown): string[] {
  const messages = (body as { messages?: Message[] }).messages ?? []
  const texts: string[] = []
  const visit = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value)
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') {
      const block = value as { text?: unknown; content?: unknown }
      if (typeof block.text === 'string') texts.push(block.text)
      if (block.content !== undefined) visit(block.content)
    }
  }
  for (const message of messages) visit(message.content)
  return texts
}

describe.skipIf(!HAS_CLAUDE)('recall through Claude Code 2.1.329 (real CLI, stand-in API)', () => {
  let workspace: string
  let project: string
  let standIn: ClaudeCodeStandIn
  let run: Awaited<ReturnType<typeof runClaude>>

  beforeAll(async () => {
    await ensureBuilt()
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-recall-e2e-')))
    project = join(workspace, 'project')
    const home = join(workspace, 'home')
    mkdirSync(project)
    mkdirSync(home)
    standIn = await startClaudeCodeStandIn([
      { tool: 'mcp__somnus__recall', input: { query: 'staging deploy hangs', limit: 3 } },
      { text: 'The deploy hangs without the VPN.' },
    ])
    const env = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      ANTHROPIC_BASE_URL: standIn.url,
      ANTHROPIC_API_KEY: 'test-key',
      DISABLE_AUTOUPDATER: '1',
    }
    const somnus = (args: string[]) =>
      execFileSync(process.execPath, [SOMNUS_BIN, ...args], { cwd: project, env, encoding: 'utf8' })
    somnus(['init'])
    writeFileSync(
      join(project, '_agent_context', 'knowledge', 'deploys.md'),
      `---\ntitle: Deploys\nsummary: How we ship to staging and production.\n---\n\n## Staging\n\n${FACT}\n`,
    )
    somnus(['recall', 'staging']) // builds the index the prompt hook reads
    // The approval a person gives Claude Code for the project's .mcp.json servers.
    writeFileSync(
      join(project, '.claude', 'settings.local.json'),
      `${JSON.stringify({ enabledMcpjsonServers: ['somnus'] })}\n`,
    )
    run = await runClaude(
      [
        '-p',
        'Why does the staging deploy hang at the rsync step?',
        '--allowedTools',
        'mcp__somnus__recall',
        '--output-format',
        'json',
      ],
      { cwd: project, env },
    )
  }, 300_000)

  afterAll(async () => {
    await standIn?.close()
    if (workspace)
      rmSync(workspace, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  })

  it('starts the MCP server init registered and offers its tools to the model', () => {
    expect(run.code, run.stderr).toBe(0)
    expect(
      JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers.somnus.args,
    ).toContain('mcp')
    // 2.1.329 defers MCP tools: it names them to the model and loads a schema when one is called.
    const first = textsOf(standIn.agentRequests()[0]?.body).join('\n')
    for (const tool of ['recall', 'read', 'bookmark', 'sleep_status'])
      expect(first).toContain(`mcp__somnus__${tool}`)
    expect(first).toContain('Use `recall` before answering questions about earlier work')
  })

  it("delivers the recall tool's answer, with its file:line, in the model's next request", () => {
    const requests = standIn.agentRequests()
    expect(requests).toHaveLength(2)
    const second = textsOf(requests[1]?.body).join('\n')
    expect(second).toContain(FACT)
    expect(second).toContain(PLACE)
    expect((JSON.parse(run.stdout) as { result: string }).result).toBe(
      'The deploy hangs without the VPN.',
    )
  })

  it('adds the prompt-time memory lines to the prompt the model receives', () => {
    const first = textsOf(standIn.agentRequests()[0]?.body).join('\n')
    expect(first).toContain('[somnus] From memory')
    expect(first).toContain(`- ${PLACE}: ${FACT}`)
  })
})
