/**
 * A loopback stand-in for OpenAI-compatible chat completions: `POST <prefix>/chat/completions`
 * answered from a script, in OpenAI's response and error shapes.
 */
import {
  type Script,
  type StandInServer,
  scriptedReply,
  sendJson,
  startStandInServer,
} from './stand-in-server.ts'

/** Starts the stand-in; its `url` plus `/v1` is the base URL a client should use. */
export async function startOpenAiChatStandIn(script: Script): Promise<StandInServer> {
  let index = 0
  return startStandInServer((request, response) => {
    if (request.method !== 'POST' || !request.path.endsWith('/chat/completions')) {
      sendJson(response, 404, errorBody('invalid_request_error', `Unknown path ${request.path}`))
      return
    }
    const reply = scriptedReply(script, request, index++)
    if ('hang' in reply) return
    if ('raw' in reply) {
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
      response.end(reply.raw)
      return
    }
    if ('error' in reply) {
      const body = errorBody(reply.errorType ?? 'server_error', reply.error)
      sendJson(response, reply.status, body, reply.headers)
      return
    }
    const model = (request.body as { model?: string }).model ?? 'stand-in'
    const usage = {
      prompt_tokens: reply.usage?.input ?? 12,
      completion_tokens: reply.usage?.output ?? 7,
    }
    sendJson(response, 200, {
      id: `chatcmpl-stand-in-${index}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.text },
          finish_reason: reply.truncated ? 'length' : 'stop',
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    })
  })
}

/** OpenAI's error envelope. */
function errorBody(type: string, message: string) {
  return { error: { message, type, param: null, code: null } }
}
