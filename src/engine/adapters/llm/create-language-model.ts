/**
 * Turns a model spec (`--model`, SOMNUS_MODEL or `model` in the config file) into a LanguageModel.
 * Keys and base URLs: the config file's `anthropic.*` / `openai.*` value wins over the SDKs'
 * environment variables (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL),
 * and both are read when a call is made, never at start-up, so `extractive` never needs them.
 */
import type { Config } from '../../core/config.ts'
import { SomnusError } from '../../core/errors.ts'
import type { LanguageModel } from '../../ports/language-model.ts'
import { createAnthropicTransport } from './anthropic-transport.ts'
import { createClaudeCliTransport, type SpawnFunction } from './claude-cli-transport.ts'
import { createOpenAiTransport } from './openai-transport.ts'
import type { HttpSettings } from './post-json.ts'
import { createPromptedLanguageModel } from './prompted-language-model.ts'

/** The spec forms `createLanguageModel` accepts, for help texts and errors. */
export const MODEL_SPEC_FORMS = [
  'extractive',
  'anthropic:<model>',
  'openai:<model>',
  'claude-cli',
  'claude-cli:<model>',
]

/** What the factory needs besides the spec. */
export interface CreateLanguageModelOptions {
  config: Config
  env: Record<string, string | undefined>
  /** Replaces global fetch for the HTTP providers (tests, proxies). */
  fetch?: typeof fetch
  /** Retry, timeout and backoff settings for the HTTP providers. */
  http?: Omit<HttpSettings, 'fetch'>
  /** Replaces `node:child_process` spawn for `claude-cli` (tests). */
  spawn?: SpawnFunction
}

/** The LanguageModel for `spec`, or a MODEL_CONFIG error listing the valid forms. */
export async function createLanguageModel(
  spec: string,
  options: CreateLanguageModelOptions,
): Promise<LanguageModel> {
  const trimmed = spec.trim()
  if (trimmed === 'extractive') {
    const { createExtractiveLanguageModel } = await import('./extractive-language-model.ts')
    return createExtractiveLanguageModel()
  }
  const separator = trimmed.indexOf(':')
  const provider = separator === -1 ? trimmed : trimmed.slice(0, separator)
  const model = separator === -1 ? '' : trimmed.slice(separator + 1).trim()
  const { config, env } = options
  const http = { ...options.http, fetch: options.fetch }

  if (provider === 'anthropic' && model !== '') {
    const transport = createAnthropicTransport({
      ...http,
      model,
      apiKey: config.anthropic.api_key,
      baseUrl: config.anthropic.base_url,
      env,
    })
    return createPromptedLanguageModel({ name: `anthropic:${model}`, transport })
  }
  if (provider === 'openai' && model !== '') {
    const transport = createOpenAiTransport({
      ...http,
      model,
      apiKey: config.openai.api_key,
      baseUrl: config.openai.base_url,
      env,
    })
    return createPromptedLanguageModel({ name: `openai:${model}`, transport })
  }
  if (provider === 'claude-cli' && (separator === -1 || model !== '')) {
    const transport = createClaudeCliTransport({
      model: model === '' ? undefined : model,
      apiKey: config.anthropic.api_key,
      baseUrl: config.anthropic.base_url,
      env,
      spawn: options.spawn,
    })
    return createPromptedLanguageModel({ name: trimmed, transport })
  }
  throw new SomnusError(
    'MODEL_CONFIG',
    `Unknown model "${spec}". Use one of: ${MODEL_SPEC_FORMS.join(', ')} (for example anthropic:claude-sonnet-4-5 or openai:gpt-4.1-mini).`,
  )
}
