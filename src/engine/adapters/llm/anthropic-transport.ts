/**
 * The Anthropic Messages API (`POST {base}/v1/messages`) as a chat transport: one thin `fetch` call,
 * the key and base URL resolved at call time (config value, then ANTHROPIC_API_KEY /
 * ANTHROPIC_BASE_URL, as the official SDK reads them).
 */
import * as z from 'zod'
import { SomnusError } from '../../core/errors.ts'
import type { ChatTransport } from '../../ports/chat-transport.ts'
import { type HttpSettings, pickHttpSettings, postJson } from './post-json.ts'
import { CONFIG_FILE_HINT, endpointUrl, firstSetting } from './provider-settings.ts'

/** The public endpoint, used when neither config nor ANTHROPIC_BASE_URL names another. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'

/** The API version header value the Messages API documents as current. */
export const ANTHROPIC_VERSION = '2023-06-01'

/** How to reach Anthropic. */
export interface AnthropicTransportOptions extends HttpSettings {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  model: string
  /** `anthropic.api_key` from the config file; wins over ANTHROPIC_API_KEY. */
  apiKey?: string
  /** `anthropic.base_url` from the config file; wins over ANTHROPIC_BASE_URL. */
  baseUrl?: string
  /** Where ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL are read from, at call time. @default {} */
  env?: Record<string, string | undefined>
}

/**
 * The parts of a Messages API answer Somnus uses. Loose on purpose: Anthropic adds fields and
 * block types (thinking, tool_use) over time, and only `text` blocks carry the reply.
 */
const MessagesResponseSchema = z.object({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  stop_reason: z.string().nullish(),
  usage: z.looseObject({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  }),
})

/** A transport that sends each request to the Anthropic Messages API. */
export function createAnthropicTransport(options: AnthropicTransportOptions): ChatTransport {
  return {
    generate: async (request) => {
      const env = options.env ?? {}
      const apiKey = firstSetting(options.apiKey, env.ANTHROPIC_API_KEY)
      if (apiKey === undefined) {
        throw new SomnusError(
          'MODEL_CONFIG',
          `anthropic: no API key. Set ANTHROPIC_API_KEY in the environment or "anthropic.api_key" in ${CONFIG_FILE_HINT}, or use --model extractive to work offline.`,
        )
      }
      const urlHint = `Check ANTHROPIC_BASE_URL or "anthropic.base_url" in ${CONFIG_FILE_HINT}.`
      const baseUrl =
        firstSetting(options.baseUrl, env.ANTHROPIC_BASE_URL) ?? ANTHROPIC_DEFAULT_BASE_URL
      const url = endpointUrl(baseUrl, '/v1/messages', 'anthropic', urlHint)
      const body = await postJson({
        ...pickHttpSettings(options),
        provider: 'anthropic',
        signal: request.signal,
        url,
        headers: { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION },
        body: {
          model: options.model,
          max_tokens: request.maxTokens,
          system: request.system,
          messages: [{ role: 'user', content: request.prompt }],
        },
        secrets: [apiKey],
        urlHint,
        authHint: `Check the key in ANTHROPIC_API_KEY or "anthropic.api_key" in ${CONFIG_FILE_HINT}.`,
      })
      const parsed = MessagesResponseSchema.safeParse(body)
      if (!parsed.success) {
        throw new SomnusError(
          'MODEL_FAILED',
          `anthropic: ${url} answered with a body that is not a Messages API response: ${z.prettifyError(parsed.error)}`,
        )
      }
      const { content, usage, stop_reason } = parsed.data
      return {
        text: content
          .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []))
          .join(''),
        usage: {
          // Cached prompt tokens are billed apart but are still input the call consumed.
          input_tokens:
            usage.input_tokens +
            (usage.cache_creation_input_tokens ?? 0) +
            (usage.cache_read_input_tokens ?? 0),
          output_tokens: usage.output_tokens,
        },
        truncated: stop_reason === 'max_tokens',
      }
    },
  }
}
