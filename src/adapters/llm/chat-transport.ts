/**
 * The one thing every LLM provider must do for Somnus: answer one system + user prompt with text.
 * The prompted model builds every consolidation skill on top of it, so a provider is one method,
 * and an agent plugs in its own model by writing one (exported from the library entry).
 */
import { SomnusError } from '../../core/errors.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import type { Usage } from '../../ports/language-model.ts'
import { abortedError } from './aborted-error.ts'

/** One single-turn question to a chat model. */
export interface ChatRequest {
  system: string
  prompt: string
  /** The most tokens the reply may use (the provider's `max_tokens`). */
  maxTokens: number
  /**
   * Fires when the caller gives up: stop the work (abort the fetch, kill the process) and reject.
   * The prompted model rejects with ABORTED at once either way; honouring it frees the resources.
   */
  signal?: AbortSignal | undefined
}

/** A chat model's answer. */
export interface ChatResponse {
  text: string
  usage: Usage
  /** True when the provider stopped at `maxTokens`, so the text is likely cut mid-sentence. */
  truncated?: boolean
}

/** A provider: sends one chat request and returns the reply text. Throw SomnusError on failure. */
export interface ChatTransport {
  generate(request: ChatRequest): Promise<ChatResponse>
}

/** A plugged-in transport's message is echoed to users; a whole stack or page would drown it. */
const MAX_FAILURE_CHARS = 1_000

/** Where a user sets provider keys and URLs (never a repository's somnus.json); error messages point there. */
export const CONFIG_FILE_HINT = '~/.somnus/settings.json'

/**
 * The first non-empty value: a setting from the config file wins over the environment variable,
 * because the file is the more specific, per-project choice. Empty strings count as unset so that
 * `ANTHROPIC_API_KEY=` in a shell does not hide the config value.
 */
export function firstSetting(...values: Array<string | undefined>): string | undefined {
  for (const value of values) {
    if (value !== undefined && value.trim() !== '') return value.trim()
  }
  return undefined
}

/**
 * `text` from or about a provider with every secret gone: the known formats (the one redaction
 * step, core/redact-secrets.ts) and the exact keys in `secrets`, whatever their format, so a
 * provider that echoes the key cannot leak it into logs.
 */
export function withoutSecrets(text: string, secrets: Array<string | undefined>): string {
  let redacted = text
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4)
      redacted = redacted.split(secret).join('[redacted]')
  }
  return redactSecrets(redacted)
}

/**
 * `base` + `path` after checking that `base` is an http(s) URL: a typo in a base URL is a
 * configuration error to fix, not a network failure to retry.
 */
export function endpointUrl(base: string, path: string, provider: string, hint: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(base)
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new SomnusError(
      'MODEL_CONFIG',
      `${provider}: the base URL "${base}" is not an http(s) URL. ${hint}`,
    )
  }
  return `${base.replace(/\/+$/, '')}${path}`
}

/**
 * A transport's failure as a SomnusError: the built-in transports already throw one; a plugged-in
 * transport may throw anything, and callers branch on codes, so the rest becomes MODEL_FAILED.
 */
export function transportFailure(
  name: string,
  error: unknown,
  signal: AbortSignal | undefined,
): SomnusError {
  if (error instanceof SomnusError) return error
  if (signal?.aborted) return abortedError(name, signal)
  const said = error instanceof Error ? error.message : String(error)
  return new SomnusError(
    'MODEL_FAILED',
    `${name}: the chat transport failed: ${said.slice(0, MAX_FAILURE_CHARS)}. Check the transport passed to createPromptedLanguageModel.`,
    { cause: error },
  )
}
