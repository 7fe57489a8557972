/**
 * The LanguageModel contract against every model Somnus ships: the extractive model, and the
 * prompted model over each real transport, talking to loopback stand-ins (real HTTP on 127.0.0.1)
 * and to a real `claude`-like subprocess.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi } from 'vitest'
import { startAnthropicMessagesStandIn } from '../../../../test/support/anthropic-messages-stand-in.ts'
import { startOpenAiChatStandIn } from '../../../../test/support/openai-chat-stand-in.ts'
import { validReplyFor } from '../../../../test/support/prompted-replies.ts'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import {
  type RecordedRequest,
  type Script,
  type StandInServer,
  startStandInServer,
} from '../../../../test/support/stand-in-server.ts'
import { resolveConfig } from '../../core/config.ts'
import {
  type LanguageModelSubject,
  type StalledBackend,
  testLanguageModel,
} from '../../ports/language-model.contract.ts'
import { createLanguageModel } from './create-language-model.ts'
import { createExtractiveLanguageModel } from './extractive-language-model.ts'

const KEY = 'sk-contract-test-key-0123456789'
const config = resolveConfig({ fileText: null, filePath: 'somnus.json', env: {} })
/** Long enough that only an abort, never the transport's own timeout, ends a stalled call. */
const PATIENT = { timeoutMs: 120_000 }
const WAIT = { timeout: 20_000, interval: 20 }

/** The system and user prompt of a Messages API request (string or block form). */
function messagesPrompts(request: RecordedRequest): { system: string; prompt: string } {
  const body = request.body as { system: unknown; messages: Array<{ content: unknown }> }
  const text = (value: unknown): string =>
    typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((block: { text?: string }) => block.text ?? '').join('')
        : ''
  return { system: text(body.system), prompt: text(body.messages[0]?.content) }
}

/** The system and user prompt of a chat completions request. */
function chatPrompts(request: RecordedRequest): { system: string; prompt: string } {
  const body = request.body as { messages: Array<{ content: string }> }
  return { system: body.messages[0]?.content ?? '', prompt: body.messages[1]?.content ?? '' }
}

/** A loopback server that takes every request and never answers; it sees the client hang up. */
async function startStalledServer(): Promise<StandInServer & Omit<StalledBackend, 'model'>> {
  let onStart: () => void = () => {}
  let onCancel: () => void = () => {}
  const started = new Promise<void>((resolve) => {
    onStart = resolve
  })
  const cancelled = new Promise<void>((resolve) => {
    onCancel = resolve
  })
  const server = await startStandInServer((_request, response) => {
    onStart()
    response.on('close', () => {
      if (!response.writableEnded) onCancel()
    })
  })
  return { ...server, started: () => started, cancelled: () => cancelled }
}

testLanguageModel({
  name: 'extractive',
  features: { stalls: false, fails: false },
  make: async () => ({
    model: createExtractiveLanguageModel(),
    close: async () => {},
  }),
})

testLanguageModel({
  name: 'extractive on 2 worker threads',
  features: { stalls: false, fails: false },
  make: async () => ({
    model: createExtractiveLanguageModel({ threads: 2 }),
    close: async () => {},
  }),
})

interface HttpProvider {
  spec: string
  start(script: Script): Promise<StandInServer>
  env(url: string): Record<string, string>
  prompts(request: RecordedRequest): { system: string; prompt: string }
}

const httpProviders: HttpProvider[] = [
  {
    spec: 'anthropic:claude-contract',
    start: startAnthropicMessagesStandIn,
    env: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: KEY }),
    prompts: messagesPrompts,
  },
  {
    spec: 'openai:gpt-contract',
    start: startOpenAiChatStandIn,
    env: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: KEY }),
    prompts: chatPrompts,
  },
]

for (const provider of httpProviders) {
  testLanguageModel({
    name: `${provider.spec} over its loopback stand-in`,
    features: { stalls: true, fails: true },
    make: async (): Promise<LanguageModelSubject> => {
      const servers: StandInServer[] = []
      const modelAt = (url: string) =>
        createLanguageModel(provider.spec, { config, env: provider.env(url), http: PATIENT })
      const cooperative = await provider.start((request) => {
        const { system, prompt } = provider.prompts(request)
        return { text: validReplyFor(system, prompt) }
      })
      const failing = await provider.start([{ status: 401, error: 'invalid api key' }])
      servers.push(cooperative, failing)
      return {
        model: await modelAt(cooperative.url),
        backendCalls: () => cooperative.requests.length,
        stalled: async () => {
          const server = await startStalledServer()
          servers.push(server)
          return { ...server, model: await modelAt(server.url) }
        },
        failing: { model: await modelAt(failing.url), code: 'MODEL_FAILED' },
        close: async () => {
          await Promise.all(servers.map((server) => server.close()))
        },
      }
    },
  })
}

testLanguageModel({
  name: 'claude-cli over a real subprocess relaying to a loopback stand-in',
  features: { stalls: true, fails: true },
  make: async (): Promise<LanguageModelSubject> => {
    const workDir = mkdtempSync(join(tmpdir(), 'somnus-model-contract-'))
    // Copied and chmod-ed so the test does not depend on the file mode git checked out.
    const fakeClaude = join(workDir, 'fake-claude.mjs')
    copyFileSync(join(REPO_ROOT, 'test/support/fake-claude.mjs'), fakeClaude)
    chmodSync(fakeClaude, 0o755)
    const standIn = await startAnthropicMessagesStandIn((request) => {
      const { system, prompt } = messagesPrompts(request)
      return { text: validReplyFor(system, prompt) }
    })
    // node:child_process spawn, recorded so the test can see each child exit (and reap it).
    const modelWith = (env: Record<string, string>, spawned?: (child: ChildProcess) => void) =>
      createLanguageModel('claude-cli:claude-contract', {
        config,
        spawn: (command, args, options) => {
          const child = spawn(command, args, { env: definedOnly(options.env), stdio: 'pipe' })
          spawned?.(child)
          return child
        },
        env: {
          PATH: process.env.PATH,
          HOME: workDir,
          ANTHROPIC_API_KEY: KEY,
          SOMNUS_CLAUDE_BIN: fakeClaude,
          ...env,
        },
      })
    const children: ChildProcess[] = []
    return {
      model: await modelWith({ FAKE_CLAUDE_MODE: 'relay', ANTHROPIC_BASE_URL: standIn.url }),
      backendCalls: () => standIn.requests.length,
      stalled: async () => {
        const before = children.length
        const model = await modelWith({ FAKE_CLAUDE_MODE: 'hang' }, (child) => children.push(child))
        const child = () => {
          const started = children[before]
          if (started?.pid === undefined) throw new Error('the claude child has not started yet')
          return started
        }
        return {
          model,
          started: () => vi.waitFor(child, WAIT).then(() => undefined),
          // Node's own record of the child's end: set only once the process has really exited.
          cancelled: () =>
            vi.waitFor(() => {
              const { exitCode, signalCode } = child()
              if (exitCode === null && signalCode === null) throw new Error('child still runs')
            }, WAIT),
        }
      },
      failing: { model: await modelWith({ FAKE_CLAUDE_MODE: 'api-error' }), code: 'MODEL_FAILED' },
      close: async () => {
        await standIn.close()
        // A failed cancellation test must not leave its hanging child behind.
        for (const child of children) child.kill('SIGKILL')
        rmSync(workDir, { recursive: true, force: true })
      },
    }
  },
})

/** The variables that have a value, as `spawn` wants them. */
function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
}
