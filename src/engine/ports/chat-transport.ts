/**
 * The provider spec: the one thing every LLM provider must do for Somnus, answer one system + user
 * prompt with text. The prompted model builds every consolidation skill on top of it, so a
 * provider is one method, and an agent plugs in its own model by writing one (exported from the
 * library entry). The built-in providers (Anthropic, OpenAI-compatible, the `claude` CLI) are
 * adapters in `adapters/llm/`.
 */
import type { Usage } from './language-model.ts'

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
