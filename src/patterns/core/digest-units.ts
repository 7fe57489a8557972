/**
 * What a model asked for a session's patterns reads (`patterns encode --model`): the session
 * digest's material, the same the offline encoder reads: its gotchas (failures with the change
 * that made them pass), decisions with their reasons, the user's own words, the repeated
 * workflow, what was left open, and the summary. Each unit cites the transcript records of its
 * item, so the model's patterns cite records, as the offline entries do.
 */
import type { DigestItem, SessionDigest } from '../../engine/core/digest/session-digest.ts'
import type { Unit } from '../../engine/core/model-results.ts'

/** The units of `digest`, and the record ids each unit stands for. */
export function digestUnits(digest: SessionDigest): {
  units: Unit[]
  sources: Map<string, string[]>
} {
  const units: Unit[] = []
  const sources = new Map<string, string[]>()
  const add = (kind: string, speaker: string, items: readonly DigestItem[]) => {
    items.forEach((item, index) => {
      const id = `${kind}${index + 1}`
      units.push({ id, text: item.text, speaker })
      sources.set(id, item.sources)
    })
  }
  if (digest.summary) add('s', 'summary', [digest.summary])
  add('g', 'gotcha', digest.gotchas)
  add('d', 'decision', digest.decisions)
  add('u', 'user', digest.preferences)
  add('w', 'workflow', digest.workflow ?? [])
  add('o', 'open', digest.open)
  return { units, sources }
}
