/**
 * The error matrix of issue 3, run against both HTTP providers' loopback stand-ins: success for
 * every port method, 401, 429 then success, 500 until retries run out, garbage replies, timeouts,
 * unreachable URLs, missing keys; the key never appears in any error message.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startAnthropicMessagesStandIn } from '../../../../test/support/anthropic-messages-stand-in.ts'
import { startOpenAiChatStandIn } from '../../../../test/support/openai-chat-stand-in.ts'
import { validReplyFor } from '../../../../test/support/prompted-replies.ts'
import {
  type RecordedRequest,
  type Script,
  type ScriptedReply,
  type StandInServer,
  unusedPort,
} from '../../../../test/support/stand-in-server.ts'
import { resolveConfig } from '../../core/config.ts'
import { SomnusError } from '../../core/errors.ts'
import type { LanguageModel, Unit } from '../../ports/language-model.ts'
import { createLanguageModel } from './create-language-model.ts'

const SECRET = 'sk-test-SECRET-0123456789abcdef'
const config = resolveConfig({ fileText: null, filePath: 'somnus.json', env: {} })
const units: Unit[] = [
  { id: 's1:m1', text: 'We agreed to ship on Friday.' },
  { id: 's1:m2', text: 'The build fails without NODE_OPTIONS=--max-old-space-size=4096.' },
  { id: 's1:m3', text: 'Ship on Friday, as agreed.' },
]

interface Provider {
  name: string
  spec: string
  keyVariable: string
  start(script: Script): Promise<StandInServer>
  env(url: string, key?: string): Record<string, string | undefined>
  /** The system and user prompt of a recorded request. */
  prompts(request: RecordedRequest): { system: string; prompt: string }
}

const providers: Provider[] = [
  {
    name: 'anthropic',
    spec: 'anthropic:claude-test',
    keyVariable: 'ANTHROPIC_API_KEY',
    start: startAnthropicMessagesStandIn,
    env: (url, key) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: key }),
    prompts: (request) => {
      const body = request.body as { system: string; messages: Array<{ content: string }> }
      return { system: body.system, prompt: body.messages[0]?.content ?? '' }
    },
  },
  {
    name: 'openai',
    spec: 'openai:gpt-test',
    keyVariable: 'OPENAI_API_KEY',
    start: startOpenAiChatStandIn,
    env: (url, key) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: key }),
    prompts: (request) => {
      const body = request.body as { messages: Array<{ content: string }> }
      return { system: body.messages[0]?.content ?? '', prompt: body.messages[1]?.content ?? '' }
    },
  },
]

const errorMessages: string[] = []
afterAll(() => {
  expect(errorMessages.length).toBeGreaterThan(10)
  for (const message of errorMessages) expect(message).not.toContain(SECRET)
})

async function failure(promise: Promise<unknown>): Promise<SomnusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SomnusError)
  const somnusError = error as SomnusError
  errorMessages.push(somnusError.message, JSON.stringify(somnusError.details ?? {}))
  return somnusError
}

describe.each(providers)('$name provider against its stand-in', (provider) => {
  let standIn: StandInServer | undefined
  const sleeps: number[] = []
  afterEach(async () => {
    await standIn?.close()
    standIn = undefined
    sleeps.length = 0
  })

  async function modelFor(script: Script, http: { timeoutMs?: number; maxRetries?: number } = {}) {
    standIn = await provider.start(script)
    return createLanguageModel(provider.spec, {
      config,
      env: provider.env(standIn.url, SECRET),
      http: { sleep: async (milliseconds) => void sleeps.push(milliseconds), ...http },
    })
  }

  const cooperative: Script = (request) => {
    const { system, prompt } = provider.prompts(request)
    return { text: validReplyFor(system, prompt), usage: { input: 321, output: 45 } }
  }

  it('answers every port method and records usage', async () => {
    const model: LanguageModel = await modelFor(cooperative)
    const summary = await model.summarize({ units, budgetTokens: 100 })
    expect(summary.value.sources).toEqual(['s1:m1', 's1:m2', 's1:m3'])
    expect(summary.usage).toEqual({ input_tokens: 321, output_tokens: 45 })
    expect(summary.model).toBe(provider.spec)
    expect((await model.extractObservations({ units })).value).toHaveLength(3)
    expect((await model.extractPatterns({ units })).value[0]?.sources).toEqual(['s1:m1'])
    expect((await model.groupSimilar({ units })).value[0]?.members).toEqual(['s1:m1', 's1:m2'])
    expect((await model.reflect({ units })).value.reflection).not.toBe('')
    expect(standIn?.requests).toHaveLength(5)
  })

  it('maps 401 to MODEL_FAILED naming the status, without retrying or leaking the key', async () => {
    const model = await modelFor([
      {
        status: 401,
        error: `Incorrect API key provided: ${SECRET}`,
        errorType: 'authentication_error',
      },
    ])
    const error = await failure(model.reflect({ units }))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toContain('401')
    expect(error.message).toContain('Incorrect API key provided: [redacted]')
    expect(error.message).toContain(provider.keyVariable)
    expect(standIn?.requests).toHaveLength(1)
  })

  /** Replies in order, the last repeating; a function entry answers like a cooperative model. */
  function inOrder(...replies: Array<ScriptedReply | 'cooperative'>): Script {
    return (request, index) => {
      const reply = replies[Math.min(index, replies.length - 1)] ?? 'cooperative'
      if (reply !== 'cooperative') return reply
      const { system, prompt } = provider.prompts(request)
      return { text: validReplyFor(system, prompt), usage: { input: 321, output: 45 } }
    }
  }

  it('retries a 429, waiting as long as retry-after says', async () => {
    const limited = { status: 429, error: 'slow down', headers: { 'retry-after': '2' } }
    const model = await modelFor(inOrder(limited, 'cooperative'))
    const result = await model.reflect({ units })
    expect(result.value.sources).toEqual(['s1:m1'])
    expect(sleeps).toEqual([2000])
    expect(standIn?.requests).toHaveLength(2)
  })

  it('gives MODEL_FAILED after max retries of 500, backing off exponentially', async () => {
    const model = await modelFor(inOrder({ status: 500, error: 'internal trouble' }), {
      maxRetries: 2,
    })
    const error = await failure(model.reflect({ units }))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toMatch(/500.*after 3 attempts: internal trouble/)
    expect(standIn?.requests).toHaveLength(3)
    expect(sleeps).toHaveLength(2)
    expect(sleeps[0]).toBeGreaterThanOrEqual(375)
    expect(sleeps[0]).toBeLessThanOrEqual(500)
    expect(sleeps[1]).toBeGreaterThanOrEqual(750)
    expect(sleeps[1]).toBeLessThanOrEqual(1000)
  })

  it('does not retry other 4xx', async () => {
    const model = await modelFor(inOrder({ status: 400, error: 'max_tokens: too large' }))
    const error = await failure(model.reflect({ units }))
    expect(error.message).toContain('max_tokens: too large')
    expect(standIn?.requests).toHaveLength(1)
  })

  it('retries a garbage reply once, then gives MODEL_OUTPUT_INVALID', async () => {
    const model = await modelFor(inOrder({ text: '{"reflection": oops, not json' }))
    const error = await failure(model.reflect({ units }))
    expect(error.code).toBe('MODEL_OUTPUT_INVALID')
    expect(standIn?.requests).toHaveLength(2)
    expect(provider.prompts(standIn?.requests[1] as RecordedRequest).prompt).toContain(
      'Your previous reply was rejected',
    )
  })

  it('rejects a reply that cites an unknown unit id', async () => {
    const unknownSource = { text: '{"reflection":"r","priority":"p","sources":["s9:m9"]}' }
    const model = await modelFor(inOrder(unknownSource))
    const error = await failure(model.reflect({ units }))
    expect(error.code).toBe('MODEL_OUTPUT_INVALID')
    expect(error.message).toContain('s9:m9')
  })

  it('gives MODEL_UNREACHABLE quickly when the server never answers', async () => {
    const model = await modelFor(inOrder({ hang: true }), { timeoutMs: 150, maxRetries: 1 })
    const started = Date.now()
    const error = await failure(model.reflect({ units }))
    expect(error.code).toBe('MODEL_UNREACHABLE')
    expect(error.message).toContain('no answer within 150 ms')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(standIn?.requests).toHaveLength(2)
  })

  it('gives MODEL_UNREACHABLE naming the URL when nothing listens', async () => {
    const url = `http://127.0.0.1:${await unusedPort()}`
    const model = await createLanguageModel(provider.spec, {
      config,
      env: provider.env(url, SECRET),
      http: { sleep: async () => {} },
    })
    const error = await failure(model.reflect({ units }))
    expect(error.code).toBe('MODEL_UNREACHABLE')
    expect(error.message).toContain(url)
    expect(error.message).toContain('ECONNREFUSED')
  })
})
