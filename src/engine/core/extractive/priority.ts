/** Seed 004's priority levels and the cue rules that assign them to a sentence. */
import type { CueKind, SentenceFeatures } from './features.ts'

/** Seed 004's priority levels, most important first. */
export const PRIORITIES = ['RED', 'YLW', 'GRN'] as const
/** One priority level. */
export type PriorityLevel = (typeof PRIORITIES)[number]

/**
 * Critical (seed 004: commitments, bans, credentials, deadlines, key wins, docs/design/origins.md)
 * plus decisions.
 */
const RED_CUES: readonly CueKind[] = ['commitment', 'ban', 'credential', 'win', 'decision']
/** Important (seed 004: project status, patterns learned) plus plans, preferences, corrections, fixes. */
const YLW_CUES: readonly CueKind[] = [
  'status',
  'learning',
  'plan',
  'preference',
  'correction',
  'fix',
]

/**
 * The priority a sentence earns, or null for chatter and content-free questions. An error blocks
 * (RED) unless `errorResolved` says a fix was reported nearby, then it is a lesson (YLW).
 */
export function priorityOf(
  features: SentenceFeatures,
  errorResolved = false,
): PriorityLevel | null {
  if (features.chatter) return null
  const has = (kinds: readonly CueKind[]) => kinds.some((kind) => features.cues.includes(kind))
  const facts = features.names.length + features.numbers + features.dates
  if (features.question && facts === 0 && !has(RED_CUES)) return null
  if (has(RED_CUES) || (features.cues.includes('error') && !errorResolved)) return 'RED'
  if (has(YLW_CUES) || features.cues.includes('error')) return 'YLW'
  if (!features.question && (facts > 0 || (features.firstPerson && features.contentWords >= 3))) {
    return 'GRN'
  }
  return null
}

/** True when `left` is more urgent than `right`. */
export function outranks(left: PriorityLevel, right: PriorityLevel): boolean {
  return PRIORITIES.indexOf(left) < PRIORITIES.indexOf(right)
}
