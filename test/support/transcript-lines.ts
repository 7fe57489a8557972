/**
 * Hand-built Claude Code transcript lines for tests: the real envelope and key order (assistant
 * records put `type` after `message`, tool results are `type:"user"` records), one second apart.
 */

/** The envelope fields Claude Code writes before every message record. */
export const ENVELOPE = {
  parentUuid: null,
  isSidechain: false,
  userType: 'external',
  cwd: '/home/user/project',
  sessionId: 's-1',
  version: '2.1.39',
  gitBranch: 'main',
}

let clock = Date.parse('2026-02-12T16:00:00.000Z')

/** Sets the time of the next line to one second after `iso`. */
export function setTranscriptClock(iso: string): void {
  clock = Date.parse(iso)
}

function nextStamp(): string {
  clock += 1000
  return new Date(clock).toISOString()
}

/** Usage fields a test may set (the rest default to small numbers). */
export type Usage = {
  input_tokens?: number
  output_tokens?: number
  cache_creation_input_tokens?: number
}

/** An assistant record (one message, or one part of a split message). */
export function assistant(
  id: string,
  content: unknown[],
  usage: Usage = {},
  extra: object = {},
): string {
  const message = {
    model: 'claude-opus-4-6',
    id,
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: null,
    usage: {
      input_tokens: 3,
      cache_creation_input_tokens: 10,
      cache_read_input_tokens: 100,
      output_tokens: 5,
      ...usage,
    },
  }
  return JSON.stringify({
    ...ENVELOPE,
    message,
    requestId: 'req_1',
    type: 'assistant',
    uuid: 'u',
    timestamp: nextStamp(),
    ...extra,
  })
}

/** A tool_use content block. */
export const toolUse = (id: string, name: string, input: object = {}) => ({
  type: 'tool_use',
  id,
  name,
  input,
})
/** A text content block. */
export const text = (value: string) => ({ type: 'text', text: value })

/** A user record: a prompt (string or blocks), or whatever `content` a test needs. */
export function user(content: unknown, extra: object = {}): string {
  return JSON.stringify({
    ...ENVELOPE,
    type: 'user',
    message: { role: 'user', content },
    uuid: 'u',
    timestamp: nextStamp(),
    ...extra,
  })
}

/** A tool result, as Claude Code writes it: a user record with toolUseResult. */
export function toolResult(toolUseId: string, output: string, isError = false): string {
  const content = [
    { tool_use_id: toolUseId, type: 'tool_result', content: output, is_error: isError },
  ]
  return user(content, {
    toolUseResult: { stdout: output, stderr: '' },
    sourceToolAssistantUUID: 'a',
  })
}

/** A progress record embedding another record (as sub-agent progress does). */
export function progress(embedded: unknown): string {
  return JSON.stringify({
    ...ENVELOPE,
    type: 'progress',
    data: { message: embedded, type: 'agent_progress' },
    toolUseID: 't',
    timestamp: nextStamp(),
    uuid: 'p',
  })
}

/** True when JSON.stringify would escape a character of some key inside `value`. */
export function hasEscapedKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasEscapedKey)
  if (typeof value !== 'object' || value === null) return false
  return Object.entries(value).some(
    ([key, inner]) => JSON.stringify(key) !== `"${key}"` || hasEscapedKey(inner),
  )
}

/** Claude Code's own text for a call the person declined at the permission prompt. */
export const REFUSAL_TEXT =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file)."

/**
 * A call the person declined, as Claude Code 2.1 writes it: `toolUseResult` stamped "User
 * rejected tool use", and what they typed after "the user said:" (as in the shared datasets).
 */
export function refusal(toolUseId: string, said = '', extra: object = {}): string {
  const content =
    said === ''
      ? `${REFUSAL_TEXT} STOP what you are doing and wait for the user to tell you how to proceed.`
      : `${REFUSAL_TEXT} To tell you how to proceed, the user said:\n${said}`
  return user([{ type: 'tool_result', content, is_error: true, tool_use_id: toolUseId }], {
    toolUseResult: 'User rejected tool use',
    sourceToolAssistantUUID: 'a',
    ...extra,
  })
}
