/**
 * observations.md in seed 004's format (docs/design/origins.md): `# Observations`, then `##
 * YYYY-MM-DD` sections of `RED|YLW|GRN HH:MM fact` lines. Each consolidation's lines follow a `<!--
 * dream <id> -->` marker: it links them to their dream in dreams.jsonl (where their sources are)
 * and lets a replayed commit see that they were already appended.
 */
import type { Priority } from '../../engine/core/model-results.ts'

/** The title line a new observations file starts with. */
export const OBSERVATIONS_TITLE = '# Observations'

/** One line of the file, read. */
export type ObservationsLine =
  | { kind: 'observation'; priority: Priority; time: string; text: string; raw: string }
  | { kind: 'marker'; dream: string; raw: string }
  | { kind: 'other'; raw: string }

/** One `## date` section. */
export interface ObservationsSection {
  date: string
  lines: ObservationsLine[]
}

/** The whole file: what comes before the first section, and the sections. */
export interface ObservationsDocument {
  head: string[]
  sections: ObservationsSection[]
}

const SECTION = /^## (\d{4}-\d{2}-\d{2})\s*$/
const OBSERVATION_LINE = /^(RED|YLW|GRN) (\d{2}:\d{2}) (.+)$/
const MARKER = /^<!-- dream (\S+) -->$/

/** Reads observations.md; lines it does not know are kept as they are. */
export function parseObservations(text: string): ObservationsDocument {
  const document: ObservationsDocument = { head: [], sections: [] }
  let section: ObservationsSection | undefined
  for (const raw of text.split('\n')) {
    const header = SECTION.exec(raw)
    if (header) {
      section = { date: header[1] as string, lines: [] }
      document.sections.push(section)
      continue
    }
    if (!section) {
      document.head.push(raw)
      continue
    }
    section.lines.push(readLine(raw))
  }
  return document
}

function readLine(raw: string): ObservationsLine {
  const observation = OBSERVATION_LINE.exec(raw)
  if (observation) {
    return {
      kind: 'observation',
      priority: observation[1] as Priority,
      time: observation[2] as string,
      text: observation[3] as string,
      raw,
    }
  }
  const marker = MARKER.exec(raw.trim())
  if (marker) return { kind: 'marker', dream: marker[1] as string, raw }
  return { kind: 'other', raw }
}

/** Writes a document back; a parsed file renders to the same text. */
export function renderObservations(document: ObservationsDocument): string {
  const out = [...document.head]
  for (const section of document.sections) {
    out.push(`## ${section.date}`)
    for (const line of section.lines) out.push(line.raw)
  }
  return out.join('\n')
}

/** The date of the file's last section, or null. */
export function lastSectionDate(text: string): string | null {
  const dates = [...text.matchAll(/^## (\d{4}-\d{2}-\d{2})\s*$/gm)]
  return dates.at(-1)?.[1] ?? null
}

/** True when the dream's lines are already in the file. */
export function hasDreamMarker(text: string, dreamId: string): boolean {
  return text.includes(`<!-- dream ${dreamId} -->`)
}

/**
 * What to append for one dream: the title when the file is new, a `## date` header when the date
 * changed, the marker, the lines. `current` is the file's text ('' when it does not exist).
 */
export function observationsBlock(
  current: string,
  dream: { id: string; date: string },
  observations: readonly { priority: Priority; date?: string; time: string; text: string }[],
): string {
  const parts: string[] = []
  if (current.trim() === '') parts.push(OBSERVATIONS_TITLE, '')
  else if (!current.endsWith('\n')) parts.push('')
  // Each line under the day of its event (expiry counts from it), days in order.
  const days = [...new Set(observations.map((item) => item.date ?? dream.date))].sort()
  let section = lastSectionDate(current)
  const first = days[0] ?? dream.date
  if (section !== first) parts.push(`## ${first}`, '')
  section = first
  parts.push(`<!-- dream ${dream.id} -->`)
  for (const day of days) {
    if (day !== section) parts.push('', `## ${day}`, '')
    section = day
    for (const item of observations) {
      if ((item.date ?? dream.date) === day) parts.push(observationLine(item))
    }
  }
  parts.push('')
  return `${parts.join('\n')}\n`
}

/** `RED 09:32 fact` on one line. */
export function observationLine(item: { priority: Priority; time: string; text: string }): string {
  return `${item.priority} ${item.time} ${item.text.replace(/\s+/g, ' ').trim()}`
}

/** Every observation line of the file, newest last, with its section date. */
export function observationEntries(
  document: ObservationsDocument,
): { date: string; priority: Priority; time: string; text: string; raw: string }[] {
  return document.sections.flatMap((section) =>
    section.lines.flatMap((line) =>
      line.kind === 'observation'
        ? [
            {
              date: section.date,
              priority: line.priority,
              time: line.time,
              text: line.text,
              raw: line.raw,
            },
          ]
        : [],
    ),
  )
}
