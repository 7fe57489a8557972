/**
 * The consolidating minds: the offline extractive one (default) and any chat transport asked with
 * the seed's prompt. Both answer in the seed's text format; the mind parses both the same way.
 */

import { throwIfAborted } from '../../../engine/adapters/llm/aborted-error.ts'
import { EXTRACTIVE_MODEL_NAME } from '../../../engine/adapters/llm/extractive-language-model.ts'
import { transportFailure } from '../../../engine/adapters/llm/transport-failure.ts'
import type { ChatTransport } from '../../../engine/ports/chat-transport.ts'
import type { CpuWork } from '../../../engine/ports/cpu-work.ts'
import { renderConsolidation } from '../../core/consolidation-format.ts'
import { extractiveConsolidation } from '../../core/extractive-consolidation.ts'
import type { ConsolidationModel } from '../../ports/consolidation-model.ts'

/** Reply tokens a consolidation may use. */
const CONSOLIDATION_MAX_TOKENS = 4096

/**
 * The offline mind: `share` of the cycle's tokens for observations (default 0.24). With `cpu`,
 * the work runs on its threads in `cpu.lane` (a server's: a cycle of a few MB takes seconds).
 */
export function createExtractiveConsolidationModel(
  share = 0.24,
  cpu?: { work: CpuWork; lane: string },
): ConsolidationModel {
  return {
    name: EXTRACTIVE_MODEL_NAME,
    consolidate: async ({ activity, signal }) => {
      throwIfAborted(signal, EXTRACTIVE_MODEL_NAME)
      const units = activity.map((item) => ({
        id: String(item.line),
        text: item.text,
        speaker: item.speaker,
        timestamp: item.t,
      }))
      const parsed = cpu
        ? await cpu.work.run(cpu.lane, 'extractiveConsolidation', [units, share])
        : extractiveConsolidation(units, share)
      return {
        text: renderConsolidation(parsed),
        usage: { input_tokens: 0, output_tokens: 0 },
      }
    },
  }
}

/** A chat model as the consolidating mind: one system + user prompt, the reply text as is. */
export function createChatConsolidationModel(options: {
  name: string
  transport: ChatTransport
  maxTokens?: number
}): ConsolidationModel {
  return {
    name: options.name,
    consolidate: async ({ system, prompt, signal }) => {
      throwIfAborted(signal, options.name)
      try {
        const reply = await options.transport.generate({
          system,
          prompt,
          maxTokens: options.maxTokens ?? CONSOLIDATION_MAX_TOKENS,
          signal,
        })
        return { text: reply.text, usage: reply.usage }
      } catch (error) {
        throw transportFailure(options.name, error, signal)
      }
    },
  }
}
