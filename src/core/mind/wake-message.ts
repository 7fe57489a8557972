/** Seed 004's wake-up message: when, how long, the reflection, the priority, recent observations, where the history is. */
import type { MindConfig } from './mind-config.ts'

/** What the wake message is made of. */
export interface WakeFacts {
  now: Date
  sleptSeconds: number
  cycle: number
  reflection: string | null
  priority: string | null
  /** Most recent observation lines, oldest first. */
  recentObservations: readonly string[]
  /** The creature folder as the creature knows it, e.g. `.self`. */
  folder: string
}

/** `2026-02-12T09:37:44Z`: ISO 8601 without milliseconds, as the seed shows it. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The message injected into the conversation when the creature wakes. */
export function wakeMessage(facts: WakeFacts, config: MindConfig): string {
  const parts = [
    `You woke up at ${isoSeconds(facts.now)} after sleeping ${Math.max(0, Math.round(facts.sleptSeconds))}s. This is cycle ${facts.cycle}.`,
  ]
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
