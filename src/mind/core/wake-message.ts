/** Seed 004's wake-up message: when, how long, the reflection, the priority, recent observations, where the history is. */
import type { MindConfig } from './mind-config.ts'

/** What the wake message is made of. */
export interface WakeFacts {
  now: Date
  sleptSeconds: number
  cycle: number
  reflection: string | null
  priority: string | null
  /** Standing orders and commitments still open, each dated: always shown. */
  standingOrders?: readonly string[]
  /** Other open items (unfixed failures), each dated: always shown. */
  openPriorities?: readonly string[]
  /** Recent observation lines chosen within the budget, oldest first. */
  recentObservations: readonly string[]
  /** The creature folder as the creature knows it, e.g. `.self`. */
  folder: string
}

/** `2026-02-12T09:37:44Z`: ISO 8601 without milliseconds, as the seed shows it. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** An observation as the wake message shows it: `2026-02-12 RED 09:32 fact`. */
export function datedLine(entry: {
  date: string
  priority: string
  time: string
  text: string
}): string {
  return `${entry.date} ${entry.priority} ${entry.time} ${entry.text}`
}

/**
 * The recent observations for the wake message: the most urgent first and, within a level, the
 * newest, while they fit `budgetTokens` and `maxLines`; shown oldest first.
 */
export function chooseRecent<T extends { priority: string }>(
  entries: readonly T[],
  cost: (entry: T) => number,
  budgetTokens: number,
  maxLines: number,
): T[] {
  const rank = (priority: string) => ['RED', 'YLW', 'GRN'].indexOf(priority)
  const order = entries
    .map((entry, index) => ({ entry, index }))
    .sort(
      (left, right) =>
        rank(left.entry.priority) - rank(right.entry.priority) || right.index - left.index,
    )
  const chosen: { entry: T; index: number }[] = []
  let spent = 0
  for (const candidate of order) {
    if (chosen.length >= maxLines) break
    const price = cost(candidate.entry)
    if (spent + price > budgetTokens) continue
    spent += price
    chosen.push(candidate)
  }
  return chosen.sort((left, right) => left.index - right.index).map((item) => item.entry)
}

/** The message injected into the conversation when the creature wakes. */
export function wakeMessage(facts: WakeFacts, config: MindConfig): string {
  const parts = [
    `You woke up at ${isoSeconds(facts.now)} after sleeping ${Math.max(0, Math.round(facts.sleptSeconds))}s. This is cycle ${facts.cycle}.`,
  ]
  if (facts.standingOrders && facts.standingOrders.length > 0) {
    parts.push('', 'Standing orders and commitments (until done or revoked):')
    parts.push(...facts.standingOrders.map((line) => `- ${line}`))
  }
  if (facts.openPriorities && facts.openPriorities.length > 0) {
    parts.push('', 'Open priorities:', ...facts.openPriorities.map((line) => `- ${line}`))
  }
  if (facts.reflection) parts.push('', 'During sleep you reflected:', facts.reflection)
  if (facts.priority) parts.push('', `Your priority: ${facts.priority}`)
  if (facts.recentObservations.length > 0) {
    parts.push('', 'Recent observations:', ...facts.recentObservations)
  }
  parts.push(
    '',
    `Full history: ${facts.folder}/conversation.jsonl and ${facts.folder}/observations.md — search with rg or jq, or \`somnus mind recall <query>\`.`,
  )
  if (config.creatorMessagesFile) {
    parts.push(`Check ${config.creatorMessagesFile} for any new instructions from your creator.`)
  }
  return parts.join('\n')
}
