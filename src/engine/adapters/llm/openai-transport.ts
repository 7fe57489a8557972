/**
 * OpenAI-compatible chat completions (`POST {base}/chat/completions`) as a chat transport: OpenAI
 * itself, and the local servers that speak the same protocol (Ollama, vLLM, llama.cpp, LM Studio).
 * Key and base URL are resolved at call time: config value, then OPENAI_API_KEY / OPENAI_BASE_URL.
 */
import * as z from 'zod'
import { SomnusError } from '../../core/errors.ts'
import type { ChatTransport } from '../../ports/chat-transport.ts'
import { type HttpSettings, pickHttpSettings, postJson } from './post-json.ts'
import { CONFIG_FILE_HINT, endpointUrl, firstSetting } from './provider-settings.ts'

/** OpenAI's endpoint, used when neither config nor OPENAI_BASE_URL names another. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'

/** How to reach an OpenAI-compatible server. */
export interface OpenAiTransportOptions extends HttpSettings {
  /** The model name the server knows, e.g. `gpt-4.1-mini` or `llama3.2`. */
  model: string
  /** `openai.api_key` from the config file; wins over OPENAI_API_KEY. */
  apiKey?: string
  /** `openai.base_url` from the config file (with `/v1`); wins over OPENAI_BASE_URL. */
  baseUrl?: string
  /** Where OPENAI_API_KEY and OPENAI_BASE_URL are read from, at call time. @default {} */
  env?: Record<string, string | undefined>
}

/** The parts of a chat completion Somnus uses; local servers often omit `usage`, so it is optional. */
const ChatCompletionSchema = z.object({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({ content: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.looseObject({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
})

/** A transport that sends each request to an OpenAI-compatible chat completions endpoint. */
export function createOpenAiTransport(options: OpenAiTransportOptions): ChatTransport {
  return {
    generate: async (request) => {
      const env = options.env ?? {}
      const urlHint = `Check OPENAI_BASE_URL or "openai.base_url" in ${CONFIG_FILE_HINT} (include the /v1).`
      const baseUrl = firstSetting(options.baseUrl, env.OPENAI_BASE_URL) ?? OPENAI_DEFAULT_BASE_URL
      const url = endpointUrl(baseUrl, '/chat/completions', 'openai', urlHint)
      const isOpenAi = isOpenAiHost(baseUrl)
      const apiKey = firstSetting(options.apiKey, env.OPENAI_API_KEY)
      // Local servers (Ollama, llama.cpp, vLLM, LM Studio) usually need no key: only OpenAI's own
      // endpoint makes a missing key a configuration error.
      if (apiKey === undefined && isOpenAi) {
        throw new SomnusError(
          'MODEL_CONFIG',
          `openai: no API key. Set OPENAI_API_KEY in the environment or "openai.api_key" in ${CONFIG_FILE_HINT}; for a local server set OPENAI_BASE_URL or "openai.base_url" instead.`,
        )
      }
      const body = await postJson({
        ...pickHttpSettings(options),
        provider: 'openai',
        signal: request.signal,
        url,
        headers: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
        body: {
          model: options.model,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.prompt },
          ],
          // OpenAI deprecated `max_tokens` and its reasoning models reject it; the compatible servers
          // all still read `max_tokens`, and not all of them know the new name.
          [isOpenAi ? 'max_completion_tokens' : 'max_tokens']: request.maxTokens,
        },
        secrets: [apiKey],
        urlHint,
        authHint: `Check the key in OPENAI_API_KEY or "openai.api_key" in ${CONFIG_FILE_HINT}.`,
      })
      const parsed = ChatCompletionSchema.safeParse(body)
      if (!parsed.success) {
        throw new SomnusError(
          'MODEL_FAILED',
          `openai: ${url} answered with a body that is not a chat completion: ${z.prettifyError(parsed.error)}`,
        )
      }
      const [choice] = parsed.data.choices
      const usage = parsed.data.usage
      return {
        text: choice?.message.content ?? '',
        usage: {
          input_tokens: usage?.prompt_tokens ?? 0,
          output_tokens: usage?.completion_tokens ?? 0,
        },
        truncated: choice?.finish_reason === 'length',
      }
    },
  }
}

/** True for OpenAI's own API, the one host that always needs a key. */
function isOpenAiHost(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com'
  } catch {
    return false
  }
}
