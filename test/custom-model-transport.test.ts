/**
 * An agent plugging its own model into Somnus through the library entry only: a `ChatTransport`
 * of its own, turned into a LanguageModel by `createPromptedLanguageModel`, holds the same
 * LanguageModel contract as the built-in providers, cancellation included.
 */
import { describe, expect, it } from 'vitest'
import { CONTRACT_UNITS, testLanguageModel } from '../src/engine/ports/language-model.contract.ts'
import {
  type ChatRequest,
  type ChatTransport,
  createPromptedLanguageModel,
  isSomnusError,
  summarizeText,
} from '../src/index.ts'
import { validReplyFor } from './support/prompted-replies.ts'

/** What an agent would write around its own client: answer, and stop when the signal fires. */
function cooperativeTransport(seen: ChatRequest[]): ChatTransport {
  return {
    async generate(request) {
      seen.push(request)
      return {
        text: validReplyFor(request.system, request.prompt),
        usage: { input_tokens: 3, output_tokens: 2 },
      }
    },
  }
}

/** A transport that waits for an answer that never comes, and lets go when its signal fires. */
function stalledTransport() {
  let onStart: () => void = () => {}
  let onCancel: () => void = () => {}
  const started = new Promise<void>((resolve) => {
    onStart = resolve
  })
  const cancelled = new Promise<void>((resolve) => {
    onCancel = resolve
  })
  const transport: ChatTransport = {
    generate: ({ signal }) =>
      new Promise((_resolve, reject) => {
        onStart()
        signal?.addEventListener('abort', () => {
          onCancel()
          reject(signal.reason)
        })
      }),
  }
  return { transport, started: () => started, cancelled: () => cancelled }
}

const seen: ChatRequest[] = []
testLanguageModel({
  name: 'a custom ChatTransport through the library entry',
  features: { stalls: true, fails: true },
  make: async () => ({
    model: createPromptedLanguageModel({
      name: 'agent:own',
      transport: cooperativeTransport(seen),
    }),
    backendCalls: () => seen.length,
    stalled: async () => {
      const { transport, ...backend } = stalledTransport()
      return { ...backend, model: createPromptedLanguageModel({ name: 'agent:own', transport }) }
    },
    failing: {
      // A plugged-in transport may throw a plain Error; callers still get a code to branch on.
      model: createPromptedLanguageModel({
        name: 'agent:own',
        transport: {
          generate: async () => {
            throw new Error('connection reset by the agent gateway')
          },
        },
      }),
      code: 'MODEL_FAILED',
    },
    close: async () => {},
  }),
})

describe('a custom ChatTransport', () => {
  it('rejects with ABORTED when aborted, even if the transport ignores its signal', async () => {
    let calls = 0
    const deaf: ChatTransport = {
      generate: () => {
        calls++
        return new Promise(() => {})
      },
    }
    const model = createPromptedLanguageModel({ name: 'agent:deaf', transport: deaf })
    const controller = new AbortController()
    const call = model.reflect({ units: CONTRACT_UNITS, signal: controller.signal })
    const outcome = call.then(
      () => 'resolved',
      (error: unknown) => (isSomnusError(error) ? error.code : String(error)),
    )
    await Promise.resolve()
    controller.abort()
    expect(await outcome).toBe('ABORTED')
    expect(calls).toBe(1)
  })

  it('receives the signal summarizeText was given', async () => {
    const requests: ChatRequest[] = []
    const model = createPromptedLanguageModel({
      name: 'agent:own',
      transport: cooperativeTransport(requests),
    })
    const controller = new AbortController()
    const result = await summarizeText({
      text: 'We ship on Friday.\n\nUse pnpm, never npm.',
      budget: 50,
      model,
      signal: controller.signal,
    })
    expect(result.model).toBe('agent:own')
    expect(requests[0]?.signal).toBe(controller.signal)
  })
})
