/**
 * The in-context tier: the last `keepRecentMessages` lines since the last dream; older ones are
 * replaced by a digest of what was dropped (public code's "Session Context (trimmed for space)"),
 * and when the window still exceeds `maxContextChars`, more of the oldest go into the digest.
 */
import { shorten } from '../../engine/core/extractive/text.ts'
import type { NumberedEntry } from './activity.ts'
import type { MindConfig } from './mind-config.ts'

/** Lines of the digest at most (public code: 80). */
const MAX_DIGEST_LINES = 80
/** Characters of one digest line. */
const DIGEST_LINE_CHARS = 160

/** The window: a digest of the dropped part (or null) and the messages kept whole. */
export interface ContextWindow {
  digest: string | null
  messages: NumberedEntry[]
  /** How many lines went into the digest. */
  dropped: number
}

/** Trims `entries` (the lines since the last dream) to the window. */
export function contextWindow(
  entries: readonly NumberedEntry[],
  config: MindConfig,
): ContextWindow {
  let start = Math.max(0, entries.length - config.keepRecentMessages)
  // Keep a tool result with the message that called it: never start the window on a tool line.
  while (start > 0 && entries[start]?.entry.role === 'tool') start -= 1
  const size = (from: number) =>
    entries.slice(from).reduce((sum, item) => sum + item.entry.content.length, 0)
  while (start < entries.length - 1 && size(start) > config.maxContextChars) start += 1
  const dropped = entries.slice(0, start)
  return {
    digest: dropped.length > 0 ? digestOf(dropped) : null,
    messages: entries.slice(start),
    dropped: dropped.length,
  }
}

function digestOf(dropped: readonly NumberedEntry[]): string {
  const lines = dropped.map(({ entry }) => {
    const text = shorten(entry.content, DIGEST_LINE_CHARS)
    if (entry.role === 'user') return `> ${entry.name ? `${entry.name}: ` : ''}${text}`
    if (entry.role === 'assistant') return `thought: ${text}`
    if (entry.role === 'tool') return `call: ${entry.tool ?? 'tool'}: ${text}`
    return `system: ${text}`
  })
  const shown = lines.slice(-MAX_DIGEST_LINES)
  const first = dropped[0]?.line ?? 0
  const last = dropped.at(-1)?.line ?? 0
  return [
    `## Session Context (trimmed for space: conversation.jsonl lines ${first}-${last})`,
    ...(lines.length > shown.length
      ? [`(${lines.length - shown.length} earlier lines not shown)`]
      : []),
    ...shown,
  ].join('\n')
}
