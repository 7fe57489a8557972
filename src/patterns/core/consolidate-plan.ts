/**
 * Consolidation's mechanical half (seed 002 item 7, docs/design/origins.md): prune entries past
 * their age, count entries per domain and tags, and bail out before any grouping when no domain can
 * reach the occurrence threshold. Then, once similar entries are grouped, decide which groups
 * crystallize and where (item 10: rules for every task go to CLAUDE.md, domain knowledge to a
 * skill).
 */
import { daysSince } from '../../engine/core/dates.ts'
import type { PatternCategory, PatternEntry, PatternFile } from './pattern-entry.ts'

/** What the pre-filter found. */
export interface PatternCensus {
  /** Entries older than the prune age, by domain (removed from the files). */
  pruned: PatternEntry[]
  /** Active entries per domain after pruning. */
  perDomain: Record<string, number>
  /** How many active entries carry each tag, most frequent first. */
  tagFrequency: [string, number][]
  /** Active entries of the domains that have at least the threshold of them. */
  candidates: PatternEntry[]
  /** Why consolidation stops here (nothing can crystallize), or null to go on to grouping. */
  bailOut: string | null
  /** The files after pruning (only those that changed). */
  files: Map<string, PatternFile>
}

/** Counts, prunes and picks candidates; pure. */
export function censusOfPatterns(input: {
  files: ReadonlyMap<string, PatternFile>
  now: Date
  pruneDays: number
  minOccurrences: number
}): PatternCensus {
  const pruned: PatternEntry[] = []
  const perDomain: Record<string, number> = {}
  const tags = new Map<string, number>()
  const candidates: PatternEntry[] = []
  const files = new Map<string, PatternFile>()
  for (const [domain, file] of input.files) {
    const kept = file.entries.filter((entry) => {
      const age = daysSince(entry.date, input.now)
      if (age !== null && age > input.pruneDays) {
        pruned.push(entry)
        return false
      }
      return true
    })
    if (kept.length !== file.entries.length) files.set(domain, { ...file, entries: kept })
    const active = kept.filter((entry) => entry.status === 'active')
    perDomain[domain] = active.length
    for (const entry of active)
      for (const tag of entry.tags) tags.set(tag, (tags.get(tag) ?? 0) + 1)
    if (active.length >= input.minOccurrences) candidates.push(...active)
  }
  const tagFrequency = [...tags].sort(
    (left, right) => right[1] - left[1] || (left[0] < right[0] ? -1 : 1),
  )
  // Seed 002 item 7: skip the grouping (a model call) when no domain has enough entries.
  const bailOut =
    candidates.length === 0
      ? `no domain has ${input.minOccurrences} or more active entries (${describeCounts(perDomain)})`
      : null
  return { pruned, perDomain, tagFrequency, candidates, bailOut, files }
}

function describeCounts(perDomain: Record<string, number>): string {
  const parts = Object.entries(perDomain).map(([domain, count]) => `${domain} ${count}`)
  return parts.length === 0 ? 'no entries' : parts.join(', ')
}

/** Categories whose lessons apply to every task (item 10: style, conventions, preferences). */
const EVERY_TASK: ReadonlySet<PatternCategory> = new Set([
  'convention',
  'user-preference',
  'brand-voice',
])

/** Where a group goes. */
export type Placement = 'skill' | 'claude-md'

/**
 * Item 10: CLAUDE.md (loaded every turn) only for rules needed on every task, which is what
 * conventions and the user's preferences are; everything else (workarounds, gotchas, tool
 * failures, decisions about one area) is domain knowledge, loaded on demand as a skill.
 */
export function placementOf(members: readonly Pick<PatternEntry, 'category'>[]): Placement {
  const everyTask = members.filter((member) => EVERY_TASK.has(member.category)).length
  return everyTask * 2 > members.length ? 'claude-md' : 'skill'
}

/** A group that crystallizes: its entries (central first), where it goes. */
export interface Crystal {
  placement: Placement
  domain: string
  /** The group's label: the central member's text. */
  label: string
  members: PatternEntry[]
}

/**
 * The groups that crystallize: at least `minOccurrences` members from as many distinct sessions
 * (one session repeating itself is not a recurring lesson). `groups` hold entry ids.
 */
export function crystalsOf(input: {
  groups: readonly { label: string; members: readonly string[] }[]
  entries: ReadonlyMap<string, PatternEntry>
  minOccurrences: number
}): Crystal[] {
  const crystals: Crystal[] = []
  for (const group of input.groups) {
    const members = group.members
      .map((id) => input.entries.get(id))
      .filter((entry): entry is PatternEntry => entry !== undefined)
    const sessions = new Set(members.map((member) => member.sources[0] ?? member.id))
    if (sessions.size < input.minOccurrences) continue
    const domain = mostCommon(members.map((member) => member.domain))
    crystals.push({ placement: placementOf(members), domain, label: group.label, members })
  }
  return crystals
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((left, right) => right[1] - left[1])[0]?.[0] ?? 'general'
}
