/**
 * A loopback stand-in of the Anthropic Messages API for an agent loop with tools, answered as
 * plain JSON (no streaming): each request that offers tools gets the next scripted step, a
 * `tool_use` block or a final text. A consolidation request (no tools, the consolidating mind's
 * system prompt) gets an answer in the seed's format, or, as a real model does, a 400 "prompt is
 * too long" past 200,000 tokens (counted here as characters / 4). Other requests get a short text.
 */
import {
  type RecordedRequest,
  type StandInServer,
  sendJson,
  startStandInServer,
} from './stand-in-server.ts'

/** One scripted assistant turn. */
export type CreatureStep =
  | { tool: string; input: Record<string, unknown>; say?: string }
  | { text: string }

/** The context window the stand-in enforces, in tokens (characters / 4). */
export const STAND_IN_MAX_TOKENS = 200_000

/** The stand-in and the agent-loop requests it saw. */
export interface CreatureStandIn extends StandInServer {
  agentRequests(): RecordedRequest[]
}

/** Starts it on 127.0.0.1 at a random port. */
export async function startCreatureStandIn(script: CreatureStep[]): Promise<CreatureStandIn> {
  let step = 0
  const server = await startStandInServer((request, response) => {
    const body = request.body as { tools?: unknown[]; model?: string }
    if (request.method !== 'POST' || !request.path.startsWith('/v1/messages')) {
      sendJson(response, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: request.path },
      })
      return
    }
    const usage = { input_tokens: 10, output_tokens: 5 }
    const system = (body as { system?: unknown }).system
    if (typeof system === 'string' && system.startsWith('You are the consolidating mind')) {
      const tokens = Math.ceil(JSON.stringify(body).length / 4)
      if (tokens > STAND_IN_MAX_TOKENS) {
        sendJson(response, 400, {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `prompt is too long: ${tokens} tokens > ${STAND_IN_MAX_TOKENS} maximum`,
          },
        })
        return
      }
      sendJson(response, 200, {
        id: 'msg_dream',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [
          {
            type: 'text',
            text: 'OBSERVATIONS:\nYLW 09:00 Listed the build outputs, all large.\n\nREFLECTION:\nA long run of listings.\n\nPRIORITY:\nSummarize the build outputs.',
          },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: tokens, output_tokens: 30 },
      })
      return
    }
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      sendJson(response, 200, {
        id: 'msg_side',
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        usage,
      })
      return
    }
    const index = step++
    const played = script[Math.min(index, script.length - 1)] ?? { text: 'Done.' }
    const content =
      'tool' in played
        ? [
            ...(played.say ? [{ type: 'text', text: played.say }] : []),
            {
              type: 'tool_use',
              id: `toolu_${String(index).padStart(2, '0')}`,
              name: played.tool,
              input: played.input,
            },
          ]
        : [{ type: 'text', text: played.text }]
    sendJson(response, 200, {
      id: `msg_${index}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: 'tool' in played ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage,
    })
  })
  const isAgent = (request: RecordedRequest) =>
    Array.isArray((request.body as { tools?: unknown[] }).tools)
  return { ...server, agentRequests: () => server.requests.filter(isAgent) }
}
