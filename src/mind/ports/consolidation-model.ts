/**
 * The consolidating mind (seed 004, docs/design/origins.md): one call, outside the creature's
 * conversation, that answers in the OBSERVATIONS / REFLECTION / PRIORITY text format.
 * Implementations: the offline extractive mind (default) and any chat transport with the seed's
 * prompt. The caller parses the text.
 */

import type { Usage } from '../../engine/core/model-results.ts'
import type { ActivityLine } from '../core/consolidation-format.ts'

/** One consolidation request. */
export interface ConsolidationRequest {
  /** The system prompt (the seed's). */
  system: string
  /** The user prompt: the numbered activity, and on a retry what was wrong. */
  prompt: string
  /** The same activity as data, for models that read it directly. */
  activity: readonly ActivityLine[]
  deep: boolean
  signal?: AbortSignal | undefined
}

/** A model that writes consolidations. */
export interface ConsolidationModel {
  /** `extractive`, or the chat model's name. */
  readonly name: string
  /** The answer text, in the seed's format (or not: the caller checks). */
  consolidate(request: ConsolidationRequest): Promise<{ text: string; usage: Usage }>
}
