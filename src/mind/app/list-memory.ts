/** The observations file (with each line's sources, from its dream) and the dream log. */

import type { Priority } from '../../engine/core/model-results.ts'
import type { DreamEntry } from '../core/mind-state.ts'
import { parseObservations } from '../core/observations-file.ts'
import type { MindDeps } from './mind-deps.ts'
import { dreamEntries } from './mind-records.ts'

/** One observation line as `somnus mind observations --json` prints it. */
export interface ListedObservation {
  date: string
  priority: Priority
  time: string
  text: string
  /** The dream that wrote it. */
  dream: string | null
  /** conversation.jsonl lines it came from. */
  sources: number[]
  /** Line in observations.md. */
  line: number
}

/** Every current observation, oldest first; `priority` filters. */
export async function listObservations(
  deps: MindDeps,
  filter: { priority?: Priority | undefined } = {},
): Promise<{ text: string; observations: ListedObservation[] }> {
  const text = (await deps.store.files.readDocument('observations')) ?? ''
  const dreams = new Map(
    dreamEntries(await deps.store.files.readLog('dreams')).map((dream) => [dream.id, dream]),
  )
  const document = parseObservations(text)
  const listed: ListedObservation[] = []
  let line = document.head.length
  for (const section of document.sections) {
    line += 1
    let dream: string | null = null
    for (const item of section.lines) {
      line += 1
      if (item.kind === 'marker') dream = item.dream
      if (item.kind !== 'observation') continue
      const detail = dream
        ? dreams
            .get(dream)
            ?.detail.find((entry) => entry.text === item.text && entry.priority === item.priority)
        : undefined
      listed.push({
        date: section.date,
        priority: item.priority,
        time: item.time,
        text: item.text,
        dream,
        sources: detail?.sources ?? [],
        line,
      })
    }
  }
  const observations = filter.priority
    ? listed.filter((item) => item.priority === filter.priority)
    : listed
  return { text, observations }
}

/** The last `limit` dreams, oldest first. */
export async function listDreams(deps: MindDeps, limit = 10): Promise<DreamEntry[]> {
  return dreamEntries(await deps.store.files.readLog('dreams')).slice(-limit)
}
