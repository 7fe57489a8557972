/**
 * One action (a tool call): logged, counted; the tiredness warning at the warning threshold is
 * logged and returned once per cycle, and at the limit the creature is put to sleep (forced).
 */

import { countAction } from '../core/fatigue.ts'
import type { ConversationEntry } from '../core/mind-state.ts'
import { type MindDeps, writeState } from './mind-deps.ts'
import { eventTime, storedText } from './record-message.ts'
import { type SleepResult, sleepMind } from './sleep-mind.ts'
import { withMind } from './with-mind.ts'

/** An action: the tool and what it did (the call and a short result). */
export interface ActionInput {
  tool: string
  content: string
  /** When it happened (ISO 8601), when not just now. @default now */
  at?: string | undefined
  signal?: AbortSignal | undefined
}

/** What the action led to. */
export interface ActionResult {
  line: number
  actions: number
  /** The warning to show the creature, the first time it is tired in a cycle. */
  warning: string | null
  /** The forced sleep, when the action exhausted it. */
  forcedSleep: SleepResult | null
  /**
   * Set when the creature was asleep: the action is logged and counted all the same (nothing is
   * lost), and this says so, with the sleep's end.
   */
  asleep: string | null
}

/** Records an action; may force consolidation and sleep. */
export async function recordAction(deps: MindDeps, input: ActionInput): Promise<ActionResult> {
  const counted = await withMind(deps, async (files, state) => {
    const now = deps.clock.now().toISOString()
    const outcome = countAction(state, deps.config)
    const entries: ConversationEntry[] = [
      {
        t: eventTime(input.at, deps.clock.now()),
        role: 'tool',
        tool: storedText(input.tool, 200) || 'tool',
        content: storedText(input.content, deps.config.maxLoggedChars),
      },
    ]
    if (outcome.warning)
      entries.push({ t: now, role: 'system', kind: 'warning', content: outcome.warning })
    await files.appendLog(
      'conversation',
      entries.map((entry) => JSON.stringify(entry)),
    )
    await writeState(files, outcome.state)
    const lines = await files.countLines('conversation')
    const sleeping = state.sleeping
    return {
      line: lines - entries.length + 1,
      actions: outcome.state.actionsSinceDream,
      asleep: sleeping
        ? `The creature is asleep until ${sleeping.wakeAt} (${sleeping.reason} sleep); the action was logged and counted anyway. Wake it first.`
        : null,
      ...outcome,
    }
  })
  const forcedSleep = counted.exhausted
    ? await sleepMind(deps, {
        seconds: deps.config.deepSleepPauseSeconds,
        forced: true,
        signal: input.signal,
      })
    : null
  return {
    line: counted.line,
    actions: counted.actions,
    warning: counted.warning,
    forcedSleep,
    asleep: counted.asleep,
  }
}
