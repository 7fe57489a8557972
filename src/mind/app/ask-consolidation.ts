/**
 * The consolidation call: the seed's prompt, the model asked up to `consolidationAttempts` times,
 * each answer read by the strict parser; a failure becomes the RED observation that says so.
 */

import type { Usage } from '../../engine/core/model-results.ts'
import { activityLines, clockTime, type NumberedEntry } from '../core/activity.ts'
import {
  CONSOLIDATION_SYSTEM,
  consolidationPrompt,
  type ParsedConsolidation,
  parseConsolidation,
} from '../core/consolidation-format.ts'
import { fitActivity } from '../core/prompt-budget.ts'
import type { MindDeps } from './mind-deps.ts'

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 }

/** The parsed answer, or why there is none; usage either way. */
export type Answer =
  | { ok: true; value: ParsedConsolidation; usage: Usage }
  | { ok: false; problem: string; usage: Usage }

/** Asks the model up to `consolidationAttempts` times; never throws for a bad or failed answer. */
export async function askConsolidation(
  deps: MindDeps,
  entries: readonly NumberedEntry[],
  deep: boolean,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  // Never a prompt a model would refuse: the activity fitted to the budget, long outputs first.
  const activity = fitActivity(activityLines(entries), deps.config.promptBudgetTokens)
  const known =
    entries.length > 0 ? { first: entries[0]?.line ?? 1, last: entries.at(-1)?.line ?? 1 } : null
  let usage = NO_USAGE
  let problem: string | undefined
  for (let attempt = 1; attempt <= deps.config.consolidationAttempts; attempt += 1) {
    try {
      const reply = await deps.model.consolidate({
        system: CONSOLIDATION_SYSTEM,
        prompt: consolidationPrompt(activity, {
          now: deps.clock.now().toISOString(),
          deep,
          problem,
        }),
        activity,
        deep,
        signal,
      })
      usage = {
        input_tokens: usage.input_tokens + reply.usage.input_tokens,
        output_tokens: usage.output_tokens + reply.usage.output_tokens,
      }
      const parsed = parseConsolidation(reply.text, known)
      if (parsed.ok) return { ok: true, value: parsed.value, usage }
      problem = parsed.problem
    } catch (error) {
      problem = `the model call failed: ${error instanceof Error ? error.message : String(error)}`
      if (signal?.aborted) break
    }
  }
  return { ok: false, problem: problem ?? 'no answer', usage }
}

/** The RED observation that says consolidation failed, and where the unconsolidated lines are. */
export function failedConsolidation(
  problem: string,
  entries: readonly NumberedEntry[],
  now: Date,
): ParsedConsolidation {
  const range =
    entries.length > 0 ? `lines ${entries[0]?.line}-${entries.at(-1)?.line}` : 'no lines'
  const said = problem.replace(/\s+/g, ' ').slice(0, 300)
  return {
    observations: [
      {
        priority: 'RED',
        time: clockTime(now.toISOString()),
        text: `Consolidation failed (${said}); conversation.jsonl ${range} are kept unconsolidated: search them with somnus mind recall.`,
        lines: [],
      },
    ],
    reflection: `Consolidation failed: ${said}`,
    priority: 'Review the unconsolidated conversation lines.',
  }
}
