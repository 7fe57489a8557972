/**
 * A loopback stand-in for the Anthropic Messages API: `POST /v1/messages` answered from a script,
 * as JSON or (when the request asks `stream: true`, as Claude Code does) as server-sent events.
 */
import type { ServerResponse } from 'node:http'
import {
  type RecordedRequest,
  type Script,
  type ScriptedReply,
  type StandInServer,
  scriptedReply,
  sendJson,
  startStandInServer,
} from './stand-in-server.ts'

/** Starts the stand-in; requests to other paths get a 404 in Anthropic's error shape. */
export async function startAnthropicMessagesStandIn(script: Script): Promise<StandInServer> {
  let index = 0
  return startStandInServer((request, response) => {
    if (request.method !== 'POST' || !request.path.startsWith('/v1/messages')) {
      sendJson(response, 404, errorBody('not_found_error', `no route ${request.path}`))
      return
    }
    const reply = scriptedReply(script, request, index++)
    answer(request, response, reply)
  })
}

function answer(request: RecordedRequest, response: ServerResponse, reply: ScriptedReply): void {
  if ('hang' in reply) return
  if ('raw' in reply) {
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
    response.end(reply.raw)
    return
  }
  if ('error' in reply) {
    sendJson(
      response,
      reply.status,
      errorBody(reply.errorType ?? 'api_error', reply.error),
      reply.headers,
    )
    return
  }
  const body = request.body as { model?: string; stream?: boolean }
  const model = body.model ?? 'claude-stand-in'
  const usage = { input_tokens: reply.usage?.input ?? 10, output_tokens: reply.usage?.output ?? 5 }
  const stopReason = reply.truncated ? 'max_tokens' : 'end_turn'
  const id = `msg_stand_in_${Date.now()}`
  if (body.stream) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const event = (name: string, data: unknown) =>
      response.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
    event('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    })
    event('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    })
    event('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: reply.text },
    })
    event('content_block_stop', { type: 'content_block_stop', index: 0 })
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    })
    event('message_stop', { type: 'message_stop' })
    response.end()
    return
  }
  sendJson(response, 200, {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  })
}

/** Anthropic's documented error envelope. */
function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } }
}
