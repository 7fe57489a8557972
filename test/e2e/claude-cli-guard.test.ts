/**
 * `--model claude-cli` for a user logged in to Claude Code without an API key (the usual case):
 * the child `claude -p` cannot run `--bare` (which signs in only with a key), so it is a full
 * Claude Code session in the same project, and the project's hooks (Somnus's, from `somnus init`)
 * fire in it. SOMNUS_SKIP_HOOKS=1, set by the transport, turns them off. Tested with the real
 * binary against a loopback Messages-API stand-in, the login played by CLAUDE_CODE_OAUTH_TOKEN;
 * the control run takes the variable away and shows what the guard prevents: the child's turn
 * booked into the ledger and the directive and snapshot injected into the model's prompt.
 */
import { execFile, execFileSync, spawn as nodeSpawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createClaudeCliTransport,
  type SpawnFunction,
} from '../../src/engine/adapters/llm/claude-cli-transport.ts'
import { SKIP_HOOKS_VARIABLE } from '../../src/engine/core/skip-hooks.ts'
import { startAnthropicMessagesStandIn } from '../support/anthropic-messages-stand-in.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { validReplyFor } from '../support/prompted-replies.ts'
import { CLAUDE_BINARY, HAS_CLAUDE } from '../support/run-claude.ts'
import type { RecordedRequest, StandInServer } from '../support/stand-in-server.ts'

const SUMMARIZE_SYSTEM = 'Write a faithful summary of the units.'

interface Body {
  system?: string | { text?: string }[]
  messages: { role: string; content: string | { type: string; text?: string }[] }[]
}
const textOf = (content: Body['system'] | Body['messages'][number]['content']) =>
  typeof content === 'string' ? content : (content ?? []).map((block) => block.text ?? '').join('')
/** Everything the model was given: system prompt and every message. */
const shownToModel = (request: RecordedRequest) => {
  const body = request.body as Body
  return [textOf(body.system), ...body.messages.map((message) => textOf(message.content))].join(
    '\n',
  )
}

interface Ledger {
  debt: number
  sessions: { session_id: string }[]
}

describe.skipIf(!HAS_CLAUDE)('claude-cli child runs with Somnus hooks off (real claude)', () => {
  let workspace: string
  let standIn: StandInServer

  /** A project with `somnus init` hooks and debt 12, and the environment of a logged-in user. */
  const project = (name: string) => {
    const folder = join(workspace, name)
    const home = join(workspace, `${name}-home`)
    mkdirSync(folder)
    mkdirSync(home)
    const env = {
      PATH: `/usr/bin:/bin`,
      HOME: home,
      // Logged in to Claude Code, no API key: what `claude` reads after /login.
      CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-stand-in-login',
      ANTHROPIC_BASE_URL: standIn.url,
      SOMNUS_CLAUDE_BIN: CLAUDE_BINARY,
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_MAX_RETRIES: '0',
    }
    const somnus = (...args: string[]) =>
      execFileSync(process.execPath, [SOMNUS_BIN, ...args], {
        cwd: folder,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      })
    somnus('init')
    for (let index = 0; index < 4; index += 1) somnus('sleep', 'add', '3', `design ${index}`)
    // Asynchronous, so the stand-in in this process can answer the child while it runs.
    const somnusAsync = async (...args: string[]) =>
      (
        await promisify(execFile)(process.execPath, [SOMNUS_BIN, ...args], {
          cwd: folder,
          env,
          encoding: 'utf8',
          timeout: 120_000,
        })
      ).stdout
    const ledger = () => JSON.parse(somnus('sleep', 'status', '--json')) as Ledger
    const hookLog = () => {
      try {
        return readFileSync(join(folder, '_agent_context/state/.somnus-hook.log'), 'utf8')
      } catch {
        return ''
      }
    }
    return { folder, env, somnus, somnusAsync, ledger, hookLog }
  }

  beforeAll(async () => {
    await ensureBuilt()
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-claude-cli-guard-')))
    standIn = await startAnthropicMessagesStandIn((request) => {
      const body = request.body as Body
      const system = textOf(body.system)
      const prompt = body.messages
        .filter((message) => message.role === 'user')
        .map((message) => textOf(message.content))
        .join('\n')
      try {
        return { text: validReplyFor(system, prompt) }
      } catch {
        return { text: '{"text":"ok","sources":[]}' }
      }
    })
  }, 120_000)

  afterAll(async () => {
    await standIn?.close()
    // A detached pattern encode started by SessionEnd may still be writing under HOME.
    if (workspace)
      rmSync(workspace, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  })

  it('`somnus summarize --model claude-cli` works logged in, and the child books nothing', async () => {
    const user = project('guarded')
    const before = user.ledger()
    const text = Array.from(
      { length: 30 },
      (_, index) => `- Step ${index}: moved the token refresh into the client module.`,
    ).join('\n')
    writeFileSync(join(user.folder, 'notes.md'), `${text}\n`)
    const seen = standIn.requests.length
    const output = await user.somnusAsync(
      'summarize',
      'notes.md',
      '--budget',
      '60',
      '--model',
      'claude-cli',
    )
    expect(output.length).toBeGreaterThan(0)
    const requests = standIn.requests.slice(seen).filter((r) => r.path.startsWith('/v1/messages'))
    // One reply may take more than one call (the summarize protocol retries an overlong answer).
    expect(requests.length).toBeGreaterThan(0)
    for (const request of requests) {
      // Signed in with the login token, not an API key.
      expect(request.headers.authorization).toBe('Bearer sk-ant-oat01-stand-in-login')
      expect(request.headers['x-api-key']).toBeUndefined()
      // No hook ran: nothing injected into the consolidation prompt.
      const shown = shownToModel(request)
      expect(shown).not.toContain('CONSOLIDATION')
      expect(shown).not.toContain('# Agent Context')
      expect(shown).not.toContain('[somnus]')
    }
    // Nothing booked, nothing logged.
    expect(user.ledger()).toEqual(before)
    expect(user.hookLog()).toBe('')
  })

  it('without the guard, the same child fires the hooks: the turn is booked, the directive injected', async () => {
    const user = project('unguarded')
    const before = user.ledger()
    const withoutGuard: SpawnFunction = (command, args, options) => {
      const env: Record<string, string> = {}
      for (const [name, value] of Object.entries(options.env))
        if (value !== undefined && name !== SKIP_HOOKS_VARIABLE) env[name] = value
      return nodeSpawn(command, args, { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
    }
    const transport = (spawn?: SpawnFunction) =>
      createClaudeCliTransport({
        env: user.env,
        cwd: user.folder,
        ...(spawn ? { spawn } : {}),
      })
    const request = {
      system: SUMMARIZE_SYSTEM,
      prompt: '{"id":"L1","text":"Moved the token refresh."}',
      maxTokens: 256,
    }

    // The transport as shipped: guarded, nothing changes.
    const modelRequests = (from: number) =>
      standIn.requests.slice(from).filter((r) => r.path.startsWith('/v1/messages'))
    let seen = standIn.requests.length
    await transport().generate(request)
    expect(modelRequests(seen).map(shownToModel).join('\n')).not.toContain('CONSOLIDATION')
    expect(user.ledger()).toEqual(before)

    // The same child with the variable taken away.
    seen = standIn.requests.length
    await transport(withoutGuard).generate(request)
    const shown = modelRequests(seen).map(shownToModel).join('\n')
    expect(shown).toContain('>>> CONSOLIDATION REQUIRED <<<')
    expect(shown).toContain('# Agent Context')
    const after = user.ledger()
    expect(after.sessions.length).toBe(before.sessions.length + 1)
  })
})
