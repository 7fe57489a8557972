/**
 * A loopback stand-in of the Anthropic Messages API that plays a Claude Code agent loop: each
 * streamed `POST /v1/messages` that offers tools gets the next scripted step (a tool call, or the
 * final text). The step is the number of assistant turns already in the request, so a retried
 * request replays the same step instead of skipping one.
 *
 * Seen from Claude Code 2.1.329 in `-p` mode: `HEAD /api/hello` once (a 404 is fine), then one
 * streamed `POST /v1/messages?beta=true` per agent turn, every one with `tools`. Other requests
 * (title generation, `count_tokens`, non-streaming calls) are answered sensibly and recorded.
 */
import type { ServerResponse } from 'node:http'
import {
  type RecordedRequest,
  type StandInServer,
  sendJson,
  startStandInServer,
} from './stand-in-server.ts'

/** One scripted assistant turn: a tool call (its id given, or made from the step), or the final answer. */
export type AgentStep =
  | { tool: string; input: Record<string, unknown>; id?: string }
  | { text: string }

/**
 * A script that reads each agent-loop request: the step is the number of assistant turns already
 * in it. Main agent and sub-agents are separate conversations that the request tells apart (their
 * system prompts differ), so one function can play both.
 */
export type AgentScript = (request: RecordedRequest, step: number) => AgentStep

/** A running stand-in and what it saw. */
export interface ClaudeCodeStandIn extends StandInServer {
  /** The agent-loop requests (streamed, with tools), in order. */
  agentRequests(): RecordedRequest[]
  /** Requests that were not agent-loop turns, as `METHOD path`. */
  otherRequests(): string[]
  /** The tool_use ids the script played, in order. */
  readonly toolUseIds: string[]
}

/** Token usage reported for every message, so tests can predict usage sums. */
export const STAND_IN_USAGE = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
}

/** Starts the stand-in on 127.0.0.1 at a random port. */
export async function startClaudeCodeStandIn(
  script: AgentStep[] | AgentScript,
): Promise<ClaudeCodeStandIn> {
  const toolUseIds =
    typeof script === 'function'
      ? []
      : script.flatMap((step, index) => ('tool' in step ? [step.id ?? toolUseId(index)] : []))
  const server = await startStandInServer((request, response) => answer(script, request, response))
  return {
    ...server,
    toolUseIds,
    agentRequests: () => server.requests.filter(isAgentRequest),
    otherRequests: () =>
      server.requests
        .filter((request) => !isAgentRequest(request))
        .map((request) => `${request.method} ${request.path}`),
  }
}

interface MessagesBody {
  model?: string
  stream?: boolean
  tools?: unknown[]
  messages?: { role: string; content: unknown }[]
}

function isAgentRequest(request: RecordedRequest): boolean {
  if (request.method !== 'POST' || !isMessagesPath(request.path)) return false
  const body = request.body as MessagesBody
  return body.stream === true && Array.isArray(body.tools) && body.tools.length > 0
}

function isMessagesPath(path: string): boolean {
  return path === '/v1/messages' || path.startsWith('/v1/messages?')
}

function answer(
  script: AgentStep[] | AgentScript,
  request: RecordedRequest,
  response: ServerResponse,
): void {
  if (request.method === 'HEAD' || request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(request.method === 'HEAD' ? undefined : '{}')
    return
  }
  if (request.method === 'POST' && request.path.startsWith('/v1/messages/count_tokens')) {
    sendJson(response, 200, { input_tokens: 100 })
    return
  }
  if (request.method !== 'POST' || !isMessagesPath(request.path)) {
    sendJson(response, 404, {
      type: 'error',
      error: { type: 'not_found_error', message: `stand-in has no route ${request.path}` },
    })
    return
  }
  const body = request.body as MessagesBody
  const model = body.model ?? 'claude-stand-in'
  if (!isAgentRequest(request)) {
    // A side request (a title, a summary): a short text answer in whatever form was asked for.
    if (body.stream) stream(response, model, 'msg_stand_in_side', { text: 'Stand-in session' })
    else sendJson(response, 200, message(model, 'msg_stand_in_side', { text: 'Stand-in session' }))
    return
  }
  const step = (body.messages ?? []).filter((entry) => entry.role === 'assistant').length
  const played =
    typeof script === 'function'
      ? script(request, step)
      : (script[Math.min(step, script.length - 1)] ?? { text: 'Done.' })
  stream(response, model, `msg_stand_in_${step}`, played, step)
}

function toolUseId(step: number): string {
  return `toolu_stand_in_${String(step).padStart(2, '0')}`
}

function message(model: string, id: string, step: AgentStep, index = 0) {
  const content =
    'tool' in step
      ? [{ type: 'tool_use', id: step.id ?? toolUseId(index), name: step.tool, input: step.input }]
      : [{ type: 'text', text: step.text }]
  return {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: 'tool' in step ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: STAND_IN_USAGE,
  }
}

function stream(
  response: ServerResponse,
  model: string,
  id: string,
  step: AgentStep,
  index = 0,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const send = (name: string, data: unknown) =>
    response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
  send('message_start', {
    type: 'message_start',
    message: { ...message(model, id, step, index), content: [], stop_reason: null },
  })
  if ('tool' in step) {
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: {
        type: 'tool_use',
        id: step.id ?? toolUseId(index),
        name: step.tool,
        input: {},
      },
    })
    // Split the JSON in two deltas, as the real API streams it in pieces.
    const json = JSON.stringify(step.input)
    const half = Math.floor(json.length / 2)
    for (const part of [json.slice(0, half), json.slice(half)]) {
      send('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: part },
      })
    }
  } else {
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    })
    send('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: step.text },
    })
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 })
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'tool' in step ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: STAND_IN_USAGE.output_tokens },
  })
  send('message_stop', { type: 'message_stop' })
  response.end()
}
