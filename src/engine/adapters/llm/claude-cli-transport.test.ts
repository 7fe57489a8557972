import { EventEmitter } from 'node:events'
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnthropicMessagesStandIn } from '../../../../test/support/anthropic-messages-stand-in.ts'
import { validReplyFor } from '../../../../test/support/prompted-replies.ts'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import { resolveConfig } from '../../core/config.ts'
import { SomnusError } from '../../core/errors.ts'
import type { Unit } from '../../ports/language-model.ts'
import {
  type ChildLike,
  createClaudeCliTransport,
  type SpawnFunction,
} from './claude-cli-transport.ts'
import { createLanguageModel } from './create-language-model.ts'

const SECRET = 'sk-ant-test-SECRET-42424242'
const request = { system: 'Reply in JSON.', prompt: 'Units: ...', maxTokens: 512 }
const config = resolveConfig({ fileText: null, filePath: 'somnus.json', env: {} })
const units: Unit[] = [{ id: 'h1', text: 'Fixed the flaky test by awaiting the server close.' }]
const REAL_CLAUDE = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')

let workDir = ''
let fakeClaude = ''
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'somnus-claude-cli-'))
  // Copied and chmod-ed here so the test does not depend on the file mode git checked out.
  fakeClaude = join(workDir, 'fake-claude.mjs')
  copyFileSync(join(REPO_ROOT, 'test/support/fake-claude.mjs'), fakeClaude)
  chmodSync(fakeClaude, 0o755)
})
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

async function failure(promise: Promise<unknown>): Promise<SomnusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SomnusError)
  expect((error as SomnusError).message).not.toContain(SECRET)
  return error as SomnusError
}

/** A child process that answers with `stdout` and `code`, or never when `hang` is set. */
class FakeChild extends EventEmitter implements ChildLike {
  stdin = new PassThrough()
  stdout = new PassThrough()
  stderr = new PassThrough()
  signals: string[] = []
  received = ''
  constructor(answer: { stdout: string; code: number } | 'hang') {
    super()
    this.stdin.setEncoding('utf8')
    this.stdin.on('data', (chunk: string) => {
      this.received += chunk
    })
    this.stdin.on('end', () => {
      if (answer === 'hang') return
      this.stdout.end(answer.stdout)
      this.stderr.end()
      setImmediate(() => this.emit('close', answer.code, null))
    })
  }
  kill(signal?: NodeJS.Signals): boolean {
    this.signals.push(signal ?? 'SIGTERM')
    setImmediate(() => this.emit('close', null, signal ?? 'SIGTERM'))
    return true
  }
}

function recordingSpawn(answer: ConstructorParameters<typeof FakeChild>[0]) {
  const calls: Array<{ command: string; args: string[]; env: Record<string, string | undefined> }> =
    []
  const children: FakeChild[] = []
  const spawn: SpawnFunction = (command, args, options) => {
    calls.push({ command, args, env: options.env })
    const child = new FakeChild(answer)
    children.push(child)
    return child
  }
  return { spawn, calls, children }
}

describe('createClaudeCliTransport with an injected spawn', () => {
  const okResult = JSON.stringify({
    type: 'result',
    is_error: false,
    result: '{"ok":true}',
    stop_reason: 'end_turn',
    usage: { input_tokens: 30, cache_read_input_tokens: 5, output_tokens: 7 },
  })

  it('runs claude -p --bare with the system prompt as a flag and the prompt on stdin', async () => {
    const { spawn, calls, children } = recordingSpawn({ stdout: okResult, code: 0 })
    const transport = createClaudeCliTransport({
      model: 'sonnet',
      apiKey: SECRET,
      baseUrl: 'http://127.0.0.1:1234',
      env: { SOMNUS_CLAUDE_BIN: '/opt/claude', PATH: '/usr/bin' },
      spawn,
    })
    expect(await transport.generate(request)).toEqual({
      text: '{"ok":true}',
      usage: { input_tokens: 35, output_tokens: 7 },
      truncated: false,
    })
    expect(calls[0]?.command).toBe('/opt/claude')
    expect(calls[0]?.args).toEqual([
      '-p',
      '--bare',
      '--output-format',
      'json',
      '--system-prompt',
      'Reply in JSON.',
      '--tools',
      '',
      '--no-session-persistence',
      '--model',
      'sonnet',
    ])
    expect(calls[0]?.env).toMatchObject({
      PATH: '/usr/bin',
      SOMNUS_SKIP_HOOKS: '1',
      ANTHROPIC_API_KEY: SECRET,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1234',
      CLAUDE_CODE_MAX_OUTPUT_TOKENS: '512',
      CLAUDE_CODE_MAX_RETRIES: '3',
    })
    expect(children[0]?.received).toBe('Units: ...')
  })

  it('kills the child and gives MODEL_UNREACHABLE when it does not answer in time', async () => {
    const { spawn, children } = recordingSpawn('hang')
    const transport = createClaudeCliTransport({ apiKey: SECRET, spawn, timeoutMs: 50 })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_UNREACHABLE')
    expect(error.message).toContain('no answer within 50 ms')
    expect(children[0]?.signals).toContain('SIGTERM')
  })

  it('without an API key runs as the user is logged in to Claude Code: no --bare, hooks off', async () => {
    const { spawn, calls } = recordingSpawn({ stdout: okResult, code: 0 })
    await createClaudeCliTransport({ env: { HOME: '/home/someone' }, spawn }).generate(request)
    expect(calls[0]?.args).not.toContain('--bare')
    expect(calls[0]?.args).toContain('--strict-mcp-config')
    expect(calls[0]?.env).toMatchObject({
      HOME: '/home/someone',
      SOMNUS_SKIP_HOOKS: '1',
      CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1',
      CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    })
    expect(calls[0]?.env.ANTHROPIC_API_KEY).toBeUndefined()
    // A third-party provider brings its own credentials: --bare works there.
    await createClaudeCliTransport({ env: { CLAUDE_CODE_USE_BEDROCK: '1' }, spawn }).generate(
      request,
    )
    expect(calls[1]?.args).toContain('--bare')
    expect(calls[1]?.env).toMatchObject({ SOMNUS_SKIP_HOOKS: '1' })
  })

  it('tells a logged-in user without a key how to sign in when Claude Code answers 401', async () => {
    const unauthorized = JSON.stringify({
      type: 'result',
      is_error: true,
      result: 'Invalid API key · Please run /login',
      api_error_status: 401,
    })
    const { spawn } = recordingSpawn({ stdout: unauthorized, code: 1 })
    const error = await failure(createClaudeCliTransport({ env: {}, spawn }).generate(request))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toContain('/login')
  })
})

describe('createClaudeCliTransport with a real process', () => {
  const baseEnv = () => ({ PATH: process.env.PATH, HOME: workDir, ANTHROPIC_API_KEY: SECRET })

  it('drives a fake claude script end to end through createLanguageModel', async () => {
    const reply = JSON.stringify({ reflection: 'Honest.', priority: 'Next.', sources: ['h1'] })
    const model = await createLanguageModel('claude-cli:haiku', {
      config,
      env: { ...baseEnv(), SOMNUS_CLAUDE_BIN: fakeClaude, FAKE_CLAUDE_RESULT: reply },
    })
    const result = await model.reflect({ units })
    expect(result).toEqual({
      value: { reflection: 'Honest.', priority: 'Next.', sources: ['h1'] },
      model: 'claude-cli:haiku',
      usage: { input_tokens: 42, output_tokens: 8 },
    })
  })

  it('passes the prompt through stdin intact', async () => {
    const transport = createClaudeCliTransport({ binary: fakeClaude, env: baseEnv() })
    const echo = JSON.parse(
      (await transport.generate({ ...request, prompt: 'line 1\nline "2" ✓' })).text,
    )
    expect(echo.stdin).toBe('line 1\nline "2" ✓')
    expect(echo.args).toContain('--bare')
    expect(echo.maxOutputTokens).toBe('512')
  })

  it('maps an API error result to MODEL_FAILED with the status, key redacted', async () => {
    const transport = createClaudeCliTransport({
      binary: fakeClaude,
      env: { ...baseEnv(), FAKE_CLAUDE_MODE: 'api-error' },
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toContain('API status 401')
    expect(error.message).toContain('[redacted]')
  })

  it('reports stderr when the binary exits without a result', async () => {
    const transport = createClaudeCliTransport({
      binary: fakeClaude,
      env: { ...baseEnv(), FAKE_CLAUDE_MODE: 'garbage' },
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toContain('exited with code 2')
    expect(error.message).toContain('something broke')
  })

  it('kills a real child that hangs', async () => {
    const transport = createClaudeCliTransport({
      binary: fakeClaude,
      env: { ...baseEnv(), FAKE_CLAUDE_MODE: 'hang' },
      timeoutMs: 300,
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_UNREACHABLE')
  })

  it('names the fix when the binary is missing', async () => {
    const transport = createClaudeCliTransport({
      binary: join(workDir, 'no-such-claude'),
      env: baseEnv(),
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_CONFIG')
    expect(error.message).toContain('SOMNUS_CLAUDE_BIN')
    expect(error.message).toContain('npm install -g @anthropic-ai/claude-code')
  })
})

describe.skipIf(!existsSync(REAL_CLAUDE))(
  'the real Claude Code binary against a loopback stand-in',
  () => {
    it('answers with --bare -p through ANTHROPIC_BASE_URL', async () => {
      const standIn = await startAnthropicMessagesStandIn((recorded) => {
        const body = recorded.body as {
          system: Array<{ text: string }>
          messages: Array<{ content: Array<{ text: string }> }>
        }
        const system = body.system.map((block) => block.text).join('\n')
        const prompt = body.messages[0]?.content.map((block) => block.text).join('') ?? ''
        return { text: validReplyFor(system, prompt), usage: { input: 77, output: 11 } }
      })
      try {
        const model = await createLanguageModel('claude-cli:claude-test', {
          config,
          env: {
            PATH: process.env.PATH,
            HOME: workDir,
            ANTHROPIC_API_KEY: SECRET,
            ANTHROPIC_BASE_URL: standIn.url,
            SOMNUS_CLAUDE_BIN: REAL_CLAUDE,
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          },
        })
        const result = await model.reflect({ units })
        expect(result.value.sources).toEqual(['h1'])
        expect(result.usage).toEqual({ input_tokens: 77, output_tokens: 11 })
        const body = standIn.requests[0]?.body as {
          model: string
          max_tokens: number
          tools?: unknown[]
        }
        expect(body.model).toBe('claude-test')
        expect(body.max_tokens).toBe(4096)
        expect(body.tools ?? []).toEqual([])
        expect(standIn.requests[0]?.headers['x-api-key']).toBe(SECRET)
      } finally {
        await standIn.close()
      }
    })
  },
)
