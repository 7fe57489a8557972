/**
 * The creature's open business, read from its observations: standing orders and commitments
 * (until a later line says they are done or revoked) and failures (until a later success on the
 * same subject fixes them), each with its newest evidence. Deep sleep archives what is closed,
 * priorities.md lists what is open, the wake message always shows it.
 */
import { CUES } from '../../engine/core/extractive/features.ts'
import type { Priority } from '../../engine/core/model-results.ts'
import {
  closes,
  isStanding,
  type LineKind,
  lineKind,
  subjectOf,
  subjectOverlap,
  voiceOf,
} from './meaning.ts'

/** An observation line as read from observations.md. */
export interface DatedObservation {
  date: string
  priority: Priority
  time: string
  text: string
}

/** An item still open. */
export interface OpenItem {
  /** Index of its observation in the list given. */
  index: number
  kind: 'order' | 'commitment' | 'failure'
  observation: DatedObservation
  /** Later observations about it, newest first (at most 3). */
  evidence: DatedObservation[]
}

/** Why an observation is closed. */
export type ClosedReason = 'done' | 'revoked' | 'fixed'

/** The open items and the closed ones (index → why). */
export interface OpenBusiness {
  open: OpenItem[]
  closed: Map<number, ClosedReason>
}

/** Evidence shares at least this much of an item's subject. */
const EVIDENCE_OVERLAP = 0.34

/** The speaker label an observation line starts with (`tool bash`, `Ada`), if any. */
export function speakerLabel(text: string): string | undefined {
  return /^((?:tool [^:\s]+)|[^:]{1,40}):\s/.exec(text)?.[1]
}

/** What an observation line means, by its speaker label and its text. */
export function observationKind(observation: DatedObservation): LineKind {
  const speaker = speakerLabel(observation.text)
  const body = speaker ? observation.text.slice(speaker.length + 1).trim() : observation.text
  const kind = lineKind(body, voiceOf(speaker))
  // A model writes facts, not quotes ("Banned from the forum for 7 days"): a RED one that
  // names a ban, a commitment or a deadline is taken as standing.
  if (!speaker && kind === 'statement' && observation.priority === 'RED') {
    if (CUES.ban.test(body) || CUES.commitment.test(body)) return 'order'
  }
  return kind
}

/** Reads `observations` (oldest first) for what is open and what was closed. */
export function openBusiness(observations: readonly DatedObservation[]): OpenBusiness {
  const kinds = observations.map(observationKind)
  const closed = new Map<number, ClosedReason>()
  const open: OpenItem[] = []
  observations.forEach((observation, index) => {
    const kind = kinds[index] as LineKind
    const tracked = isStanding(kind) || (kind === 'failure' && observation.priority === 'RED')
    if (!tracked) return
    const item = { text: observation.text, kind }
    for (let later = index + 1; later < observations.length; later += 1) {
      const other = {
        text: (observations[later] as DatedObservation).text,
        kind: kinds[later] as LineKind,
      }
      if (closes(other, item)) {
        closed.set(
          index,
          kind === 'failure' ? 'fixed' : other.kind === 'revocation' ? 'revoked' : 'done',
        )
        return
      }
    }
    const subject = subjectOf(observation.text)
    const evidence = observations
      .slice(index + 1)
      .filter((other) => subjectOverlap(subjectOf(other.text), subject) >= EVIDENCE_OVERLAP)
      .reverse()
      .slice(0, 3)
    open.push({ index, kind: kind as OpenItem['kind'], observation, evidence })
  })
  return { open, closed }
}

/** When an item was last heard of: its newest evidence, else itself (`YYYY-MM-DD HH:MM`). */
export function lastHeard(item: OpenItem): string {
  const newest = item.evidence[0] ?? item.observation
  return `${newest.date} ${newest.time}`
}

/** Open items, newest evidence first. */
export function byNewestEvidence(items: readonly OpenItem[]): OpenItem[] {
  return [...items].sort((left, right) => lastHeard(right).localeCompare(lastHeard(left)))
}

/** One open item as a line: its state, its text, its newest evidence. */
export function openItemLine(item: OpenItem): string {
  const { date, time, text } = item.observation
  const state =
    item.kind === 'failure'
      ? `failing since ${date} ${time}`
      : `${item.kind}, open since ${date} ${time}`
  const latest = item.evidence[0]
  return `[${state}] ${text}${latest ? ` — latest (${latest.date} ${latest.time}): ${latest.text}` : ''}`
}
