/** How a session's work turns into sleep debt, and how debt turns into a level and a directive. */

/** The four sleepiness levels of seed 000 (docs/design/origins.md), mildest first. */
export type SleepLevel = 'Alert' | 'Drowsy' | 'Sleepy' | 'Must Sleep'

/** What a policy may look at when scoring one session (all counts include sub-agent work). */
export interface SessionMetrics {
  /** Write, Edit, MultiEdit and NotebookEdit tool calls. */
  change_count: number
  /** All tool calls (tool_use blocks of assistant messages, each id once). */
  tool_count: number
  /** input + output + cache-creation tokens from `message.usage`, once per message id. */
  novel_tokens: number
  /** Human prompts in the main transcript (not tool results, meta or compact summaries). */
  user_turns: number
  /** Characters of assistant text blocks. */
  assistant_chars: number
  /** Decision and correction phrases found in the conversation ("decided", "actually", ...). */
  decision_markers: number
  /** Task slugs the session touched. */
  task_slugs: number
}

/** A scoring policy. Ships as `seed` (seed 000, the default) and `calibrated` (dreamcontext 2). */
export interface ScoringPolicy {
  readonly name: 'seed' | 'calibrated'
  /** Largest score one session can book. */
  readonly maxSessionScore: number
  /** Largest score `sleep add` accepts. */
  readonly maxManualScore: number
  /** Debt at or above which each level starts (Alert starts at 0). */
  readonly thresholds: { drowsy: number; sleepy: number; mustSleep: number }
  /** Minutes after a sleep during which advisories stay quiet (0: no cooldown). */
  readonly cooldownMinutes: number
  /** Debt at which the cooldown is ignored. */
  readonly cooldownBypassDebt: number
  /** The debt one session books. Integer, 0..maxSessionScore. */
  scoreSession(metrics: SessionMetrics): number
}

/** The level for `debt` under `policy`. */
export function levelFor(policy: ScoringPolicy, debt: number): SleepLevel {
  if (debt >= policy.thresholds.mustSleep) return 'Must Sleep'
  if (debt >= policy.thresholds.sleepy) return 'Sleepy'
  if (debt >= policy.thresholds.drowsy) return 'Drowsy'
  return 'Alert'
}
