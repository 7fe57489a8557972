import { afterEach, describe, expect, it } from 'vitest'
import { startAnthropicMessagesStandIn } from '../../../../test/support/anthropic-messages-stand-in.ts'
import type { StandInServer } from '../../../../test/support/stand-in-server.ts'
import { SomnusError } from '../../core/errors.ts'
import { createAnthropicTransport } from './anthropic-transport.ts'

const request = { system: 'You are terse.', prompt: 'Say hi.', maxTokens: 64 }
const noSleep = async () => {}

async function failure(promise: Promise<unknown>): Promise<SomnusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SomnusError)
  return error as SomnusError
}

describe('createAnthropicTransport', () => {
  let standIn: StandInServer | undefined
  afterEach(async () => {
    await standIn?.close()
    standIn = undefined
  })

  it('sends a Messages API request and reads text blocks and usage', async () => {
    standIn = await startAnthropicMessagesStandIn([{ text: 'hi', usage: { input: 11, output: 2 } }])
    const transport = createAnthropicTransport({
      model: 'claude-test',
      env: { ANTHROPIC_API_KEY: 'key-from-env', ANTHROPIC_BASE_URL: `${standIn.url}/` },
    })
    expect(await transport.generate(request)).toEqual({
      text: 'hi',
      usage: { input_tokens: 11, output_tokens: 2 },
      truncated: false,
    })
    const [recorded] = standIn.requests
    expect(recorded?.path).toBe('/v1/messages')
    expect(recorded?.headers['x-api-key']).toBe('key-from-env')
    expect(recorded?.headers['anthropic-version']).toBe('2023-06-01')
    expect(recorded?.headers['content-type']).toBe('application/json')
    expect(recorded?.body).toEqual({
      model: 'claude-test',
      max_tokens: 64,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Say hi.' }],
    })
  })

  it('prefers the config file key and base URL over the environment', async () => {
    standIn = await startAnthropicMessagesStandIn([{ text: 'ok' }])
    const transport = createAnthropicTransport({
      model: 'claude-test',
      apiKey: 'key-from-config',
      baseUrl: standIn.url,
      env: { ANTHROPIC_API_KEY: 'key-from-env', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' },
    })
    await transport.generate(request)
    expect(standIn.requests[0]?.headers['x-api-key']).toBe('key-from-config')
  })

  it('reads the key lazily and names both places to set it when missing', async () => {
    const env: Record<string, string | undefined> = {}
    let fetched = false
    const transport = createAnthropicTransport({
      model: 'claude-test',
      env,
      fetch: async () => {
        fetched = true
        return new Response('{}')
      },
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_CONFIG')
    expect(error.message).toContain('ANTHROPIC_API_KEY')
    expect(error.message).toContain('"anthropic.api_key"')
    expect(fetched).toBe(false)
  })

  it('flags a reply cut at max_tokens and counts cached input tokens', async () => {
    const fetch = async () =>
      Response.json({
        content: [
          { type: 'thinking', thinking: '...' },
          { type: 'text', text: '{"a":' },
        ],
        stop_reason: 'max_tokens',
        usage: { input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 64 },
      })
    const transport = createAnthropicTransport({ model: 'm', apiKey: 'k', fetch })
    expect(await transport.generate(request)).toEqual({
      text: '{"a":',
      usage: { input_tokens: 105, output_tokens: 64 },
      truncated: true,
    })
  })

  it('retries 529 overloaded', async () => {
    standIn = await startAnthropicMessagesStandIn([
      { status: 529, error: 'Overloaded', errorType: 'overloaded_error' },
      { text: 'fine' },
    ])
    const transport = createAnthropicTransport({
      model: 'm',
      apiKey: 'k',
      baseUrl: standIn.url,
      sleep: noSleep,
    })
    expect((await transport.generate(request)).text).toBe('fine')
    expect(standIn.requests).toHaveLength(2)
  })

  it('rejects a 200 answer that is not a Messages API body', async () => {
    standIn = await startAnthropicMessagesStandIn([
      { status: 200, raw: '<html>proxy login</html>' },
    ])
    const transport = createAnthropicTransport({ model: 'm', apiKey: 'k', baseUrl: standIn.url })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_FAILED')
    expect(error.message).toContain('not JSON')
  })

  it('treats a malformed base URL as configuration, not as a network failure', async () => {
    const transport = createAnthropicTransport({
      model: 'm',
      apiKey: 'k',
      baseUrl: 'localhost:8080',
    })
    const error = await failure(transport.generate(request))
    expect(error.code).toBe('MODEL_CONFIG')
    expect(error.message).toContain('ANTHROPIC_BASE_URL')
  })
})
