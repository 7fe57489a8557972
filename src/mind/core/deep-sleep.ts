/**
 * Deep sleep (every Nth dream) as a plan: which observation lines go to the archive (RED survives,
 * GRN older than 48 h goes, YLW goes when a later line supersedes it, and a line said again word
 * for word keeps only its newest copy), the rewritten priorities.md
 * (top 3-5) and a diary entry. Nothing is dropped: pruned lines move to the archive with a reason.
 */
import {
  contradiction,
  factsOf,
  overlap,
  sameFact,
} from '../../engine/core/extractive/similar-lines.ts'
import type { MindConfig } from './mind-config.ts'
import type { DreamEntry } from './mind-state.ts'
import {
  type ObservationsDocument,
  observationEntries,
  parseObservations,
  renderObservations,
} from './observations-file.ts'
import { byNewestEvidence, type ClosedReason, openBusiness, openItemLine } from './open-items.ts'

/** A YLW line at least this similar (word Jaccard) to a later line about it is superseded. */
const SUPERSEDED_OVERLAP = 0.5

/** What deep sleep writes. */
export interface DeepSleepPlan {
  /** observations.md after pruning. */
  observations: string
  /** What to append to the archive ('' when nothing was pruned). */
  archiveBlock: string
  pruned: { expired: number; superseded: number; restated: number; closed: number }
  kept: number
  priorities: string[]
  /** priorities.md, rewritten whole. */
  prioritiesText: string
  /** What to append to diary.md. */
  diaryEntry: string
}

/** Plans the deep sleep of dream `dream` over `observationsText` at `now`. */
export function planDeepSleep(
  observationsText: string,
  dreams: readonly DreamEntry[],
  dream: DreamEntry,
  now: Date,
  config: MindConfig,
): DeepSleepPlan {
  const document = parseObservations(observationsText)
  const entries = observationEntries(document)
  const later = entries.map((entry) => factsOf(entry.text))
  const reasons = new Map<string, PruneReason>()
  const maxAgeMs = config.greenMaxAgeHours * 3_600_000
  // Orders, commitments and failures leave only when a later line closes them (never by age).
  const business = openBusiness(entries)
  entries.forEach((entry, index) => {
    const closed = business.closed.get(index)
    if (closed) {
      reasons.set(key(entry.date, entry.raw, index), closed)
      return
    }
    // Said again word for word later (any level): the newest copy carries the fact on.
    const normalized = later[index]?.normalized
    if (later.slice(index + 1).some((newer) => newer.normalized === normalized)) {
      reasons.set(key(entry.date, entry.raw, index), 'restated')
      return
    }
    if (entry.priority === 'RED' || business.open.some((item) => item.index === index)) return
    const at = Date.parse(`${entry.date}T${entry.time}:00Z`)
    if (entry.priority === 'GRN' && Number.isFinite(at) && now.getTime() - at > maxAgeMs) {
      reasons.set(key(entry.date, entry.raw, index), 'expired')
      return
    }
    const facts = later[index]
    if (!facts) return
    const superseded = later.slice(index + 1).some((newer) => supersedes(newer, facts))
    if (superseded) reasons.set(key(entry.date, entry.raw, index), 'superseded')
  })
  const { kept, archived } = prune(document, reasons)
  const archiveBlock = archived.length
    ? [
        `## Deep sleep ${now.toISOString()} (dream ${dream.id})`,
        '',
        `<!-- deep sleep ${dream.id} -->`,
        ...archived.map((item) => `${item.raw}  <!-- ${item.date}; ${item.reason} -->`),
        '',
        '',
      ].join('\n')
    : ''
  const open = byNewestEvidence(openBusiness(observationEntries(kept)).open).slice(
    0,
    Math.max(config.maxPriorities, 1),
  )
  const priorities = open.map(openItemLine)
  const expired = archived.filter((item) => item.reason === 'expired').length
  const restated = archived.filter((item) => item.reason === 'restated').length
  const closed = archived.filter((item) => CLOSED.includes(item.reason)).length
  const superseded = archived.length - expired - restated - closed
  return {
    observations: renderObservations(kept),
    archiveBlock,
    pruned: { expired, superseded, restated, closed },
    kept: observationEntries(kept).length,
    priorities,
    prioritiesText: [
      '# Priorities',
      '',
      `Open items at the deep sleep of ${now.toISOString()} (dream ${dream.id}), newest evidence first.`,
      '',
      ...(priorities.length > 0
        ? priorities.map((item, index) => `${index + 1}. ${item}`)
        : ['No open items: choose the next goal.']),
      '',
    ].join('\n'),
    diaryEntry: diaryEntry(dream, dreams, now, {
      expired,
      superseded,
      restated,
      closed,
      kept: observationEntries(kept).length,
      priorities,
    }),
  }
}

/** A newer line supersedes an older one about the same thing: restated, corrected or updated. */
function supersedes(newer: ReturnType<typeof factsOf>, older: ReturnType<typeof factsOf>): boolean {
  if (sameFact(newer, older) || contradiction(newer, older) !== null) return true
  return overlap(newer.subject, older.subject) >= SUPERSEDED_OVERLAP && older.subject.size >= 2
}

function key(date: string, raw: string, index: number): string {
  return `${date}\u0000${index}\u0000${raw}`
}

/** Why deep sleep archived a line. */
type PruneReason = 'expired' | 'superseded' | 'restated' | ClosedReason

const CLOSED: readonly PruneReason[] = ['done', 'revoked', 'fixed']

interface ArchivedLine {
  date: string
  raw: string
  reason: PruneReason
}

function prune(
  document: ObservationsDocument,
  reasons: ReadonlyMap<string, PruneReason>,
): { kept: ObservationsDocument; archived: ArchivedLine[] } {
  const archived: ArchivedLine[] = []
  let index = 0
  const sections = document.sections.map((section) => ({
    date: section.date,
    lines: section.lines.filter((line) => {
      if (line.kind !== 'observation') return true
      const reason = reasons.get(key(section.date, line.raw, index))
      index += 1
      if (!reason) return true
      archived.push({ date: section.date, raw: line.raw, reason })
      return false
    }),
  }))
  return { kept: { head: document.head, sections }, archived }
}

function diaryEntry(
  dream: DreamEntry,
  dreams: readonly DreamEntry[],
  now: Date,
  facts: {
    expired: number
    superseded: number
    restated: number
    closed: number
    kept: number
    priorities: string[]
  },
): string {
  const since = dreams.filter((entry) => entry.deep).at(-1)
  const period = dreams.filter((entry) => !since || entry.t > since.t)
  const actions = period.reduce((sum, entry) => sum + entry.actions, 0) + dream.actions
  return [
    `## ${now.toISOString().slice(0, 10)} — deep sleep (dream ${dream.id})`,
    '',
    `<!-- diary ${dream.id} -->`,
    `Since the last deep sleep: ${period.length + 1} dreams, ${actions} actions.`,
    `Pruned ${facts.expired} expired, ${facts.superseded} superseded and ${facts.restated} restated observations; archived ${facts.closed} done, revoked or fixed (kept ${facts.kept}; all of them are in observations-archive.md).`,
    '',
    'Latest reflection:',
    dream.reflection,
    '',
    'Open now:',
    ...(facts.priorities.length > 0
      ? facts.priorities.map((item, index) => `${index + 1}. ${item}`)
      : ['Nothing.']),
    '',
    '',
  ].join('\n')
}
