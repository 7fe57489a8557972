/** The conversation lines a consolidation reads, as numbered activity lines and as model units. */
import type { TextUnit } from '../../engine/core/extractive/sentences.ts'
import type { ActivityLine } from './consolidation-format.ts'
import type { ConversationEntry } from './mind-state.ts'

/** A conversation line with its 1-based line number in conversation.jsonl. */
export interface NumberedEntry {
  line: number
  entry: ConversationEntry
}

/** Who said a line, as the consolidation shows it: a name, the tool, or the role. */
export function speakerOf(entry: ConversationEntry): string {
  if (entry.name) return entry.name
  if (entry.role === 'tool') return entry.tool ? `tool ${entry.tool}` : 'tool'
  return entry.role
}

/** `HH:MM` (UTC) of an ISO timestamp, or `00:00` when it is not one. */
export function clockTime(iso: string): string {
  const match = /T(\d{2}):(\d{2})/.exec(iso)
  return match ? `${match[1]}:${match[2]}` : '00:00'
}

/** The activity lines of a consolidation prompt. */
export function activityLines(entries: readonly NumberedEntry[]): ActivityLine[] {
  return entries.map(({ line, entry }) => ({
    line,
    t: entry.t,
    time: clockTime(entry.t),
    speaker: speakerOf(entry),
    text: entry.content,
  }))
}

/** The same lines as extractive units (id = line number). */
export function activityUnits(entries: readonly NumberedEntry[]): TextUnit[] {
  return entries.map(({ line, entry }) => ({
    id: String(line),
    text: entry.content,
    speaker: speakerOf(entry),
    timestamp: entry.t,
  }))
}
