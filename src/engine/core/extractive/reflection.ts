/**
 * An honest look back over recent observations (seed 004's REFLECTION and PRIORITY,
 * docs/design/origins.md): what got done, what is still open, and the most urgent open item as the
 * next priority.
 */
import { outranks, PRIORITIES, type PriorityLevel, priorityOf } from './priority.ts'
import { explodeUnits, type TextUnit } from './sentences.ts'
import { shorten } from './text.ts'

/** A reflection as the extractive model makes it (same shape as the port's). */
export interface ExtractedReflection {
  reflection: string
  priority: string
  sources: string[]
}

const MARKER = /^\s*(RED|YLW|GRN)\b\s*(?:\d{1,2}:\d{2}\s*)?/

interface Item {
  id: string
  index: number
  text: string
  priority: PriorityLevel
  done: boolean
  open: boolean
}

/**
 * Reads each unit as one observation: a leading `RED` / `YLW` / `GRN` marker wins, otherwise the
 * cue rules decide. Done = wins, decisions and fixes; open = unresolved errors, plans,
 * commitments and questions.
 */
export function reflect(units: readonly TextUnit[]): ExtractedReflection {
  const items = units.flatMap((unit, index): Item[] => {
    const marker = MARKER.exec(unit.text)
    const text = unit.text.replace(MARKER, '').trim()
    if (text.length === 0) return []
    const sentences = explodeUnits([{ ...unit, text }])
    const cues = new Set(sentences.flatMap((sentence) => sentence.features.cues))
    const computed = sentences
      .map((sentence) => priorityOf(sentence.features, cues.has('fix')))
      .reduce<PriorityLevel | null>(
        (best, level) => (level && (!best || outranks(level, best)) ? level : best),
        null,
      )
    const priority = (marker?.[1] as PriorityLevel | undefined) ?? computed ?? 'GRN'
    const done =
      ['win', 'decision', 'fix'].some((kind) => cues.has(kind as never)) ||
      /\b(done|✅)\b/i.test(text)
    const open =
      !done &&
      (cues.has('error') ||
        cues.has('plan') ||
        cues.has('commitment') ||
        sentences.some((sentence) => sentence.features.question))
    return [{ id: unit.id, index, text, priority, done, open }]
  })
  if (items.length === 0)
    return { reflection: 'Nothing to reflect on yet.', priority: '', sources: [] }
  const done = items.filter((item) => item.done)
  const open = items.filter((item) => item.open)
  const counts = PRIORITIES.map(
    (level) => `${items.filter((item) => item.priority === level).length} ${level}`,
  ).join(', ')
  const list = (chosen: readonly Item[]) =>
    ranked(chosen)
      .slice(0, 3)
      .map((item) => shorten(item.text, 90))
      .join('; ')
  const parts = [`${items.length} observations (${counts}).`]
  parts.push(
    done.length > 0 ? `Done (${done.length}): ${list(done)}.` : 'Nothing recorded as done.',
  )
  parts.push(open.length > 0 ? `Open (${open.length}): ${list(open)}.` : 'Nothing left open.')
  const next = ranked(open)[0]
  const cited = [...ranked(done).slice(0, 3), ...ranked(open).slice(0, 3)]
  return {
    reflection: parts.join(' '),
    priority: next ? shorten(next.text, 160) : 'No open items: choose the next goal.',
    sources: [
      ...new Set(cited.sort((left, right) => left.index - right.index).map((item) => item.id)),
    ],
  }
}

/** Most urgent first; within a level the most recent first. */
function ranked(items: readonly Item[]): Item[] {
  return [...items].sort(
    (left, right) =>
      PRIORITIES.indexOf(left.priority) - PRIORITIES.indexOf(right.priority) ||
      right.index - left.index,
  )
}
