import { afterEach, describe, expect, it } from 'vitest'
import { startOpenAiChatStandIn } from '../../../../test/support/openai-chat-stand-in.ts'
import type { StandInServer } from '../../../../test/support/stand-in-server.ts'
import { SomnusError } from '../../core/errors.ts'
import { createOpenAiTransport } from './openai-transport.ts'

const request = { system: 'You are terse.', prompt: 'Say hi.', maxTokens: 64 }

async function failure(promise: Promise<unknown>): Promise<SomnusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SomnusError)
  return error as SomnusError
}

describe('createOpenAiTransport', () => {
  let standIn: StandInServer | undefined
  afterEach(async () => {
    await standIn?.close()
    standIn = undefined
  })

  it('sends system and user messages with a bearer key and reads the first choice', async () => {
    standIn = await startOpenAiChatStandIn([{ text: 'hi', usage: { input: 9, output: 1 } }])
    const transport = createOpenAiTransport({
      model: 'llama3.2',
      env: { OPENAI_API_KEY: 'key-from-env', OPENAI_BASE_URL: `${standIn.url}/v1` },
    })
    expect(await transport.generate(request)).toEqual({
      text: 'hi',
      usage: { input_tokens: 9, output_tokens: 1 },
      truncated: false,
    })
    const [recorded] = standIn.requests
    expect(recorded?.path).toBe('/v1/chat/completions')
    expect(recorded?.headers.authorization).toBe('Bearer key-from-env')
    expect(recorded?.body).toEqual({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hi.' },
      ],
      max_tokens: 64,
    })
  })

  it('needs no key for a local server and then sends no Authorization header', async () => {
    standIn = await startOpenAiChatStandIn([{ text: 'local' }])
    const transport = createOpenAiTransport({
      model: 'qwen',
      baseUrl: `${standIn.url}/v1`,
      env: {},
    })
    expect((await transport.generate(request)).text).toBe('local')
    expect(standIn.requests[0]?.headers.authorization).toBeUndefined()
  })

  it('needs a key for api.openai.com and names OPENAI_API_KEY', async () => {
    const transport = createOpenAiTransport({
      model: 'gpt-4.1-mini',
      env: {},
      fetch: async () => {
        throw new Error('must not be called')
      },
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_CONFIG')
    expect(error.message).toContain('OPENAI_API_KEY')
    expect(error.message).toContain('"openai.api_key"')
  })

  it('uses max_completion_tokens on api.openai.com, whose newer models reject max_tokens', async () => {
    const seen: Array<{ url: string; body: Record<string, unknown> }> = []
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), body: JSON.parse(String(init?.body)) })
      return Response.json({ choices: [{ message: { content: null }, finish_reason: 'length' }] })
    }
    const transport = createOpenAiTransport({ model: 'gpt-5', apiKey: 'k', fetch })
    // Local servers often omit usage and may return null content: both read as empty, not as errors.
    expect(await transport.generate(request)).toEqual({
      text: '',
      usage: { input_tokens: 0, output_tokens: 0 },
      truncated: true,
    })
    expect(seen[0]?.url).toBe('https://api.openai.com/v1/chat/completions')
    expect(seen[0]?.body.max_completion_tokens).toBe(64)
    expect(seen[0]?.body.max_tokens).toBeUndefined()
  })

  it('reports an Ollama-style error body and honours retry-after-ms', async () => {
    const sleeps: number[] = []
    standIn = await startOpenAiChatStandIn([
      { status: 503, raw: '{"error":"loading model"}', headers: { 'retry-after-ms': '250' } },
      { status: 404, raw: '{"error":"model \\"nope\\" not found, try pulling it first"}' },
    ])
    const transport = createOpenAiTransport({
      model: 'nope',
      baseUrl: `${standIn.url}/v1`,
      sleep: async (milliseconds) => void sleeps.push(milliseconds),
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toContain('404')
    expect(error.message).toContain('model "nope" not found, try pulling it first')
    expect(sleeps).toEqual([250])
  })
})
