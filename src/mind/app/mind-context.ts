/**
 * The in-context tier rebuilt from disk: the lines since the last dream, trimmed to the last
 * `keepRecentMessages` with a digest of the rest, and the wake message when the window does not
 * already start with one (a restart). What a creature's loop hands its model.
 */
import { contextWindow } from '../core/context-window.ts'
import type { ConversationEntry, MindState } from '../core/mind-state.ts'
import type { MindDeps } from './mind-deps.ts'
import { readState } from './mind-deps.ts'
import { conversationEntries } from './mind-records.ts'
import { buildWakeMessage } from './wake-mind.ts'

/** The context: wake message, digest of the trimmed part, recent messages with their lines. */
export interface MindContext {
  wake: string | null
  digest: string | null
  messages: { line: number; entry: ConversationEntry }[]
}

/** Rebuilds the in-context window from the creature's files (no lock: it only reads). */
export async function mindContext(deps: MindDeps): Promise<MindContext> {
  const files = deps.store.files
  const state = await readState(deps, files)
  const since = conversationEntries(await files.readLog('conversation')).filter(
    (item) => item.line > state.consolidatedLines,
  )
  // Naps log a wake message each: only the newest stays in the window, so they never pile up.
  const lastWake = since.findLast((item) => item.entry.kind === 'wake')?.line
  const entries = since.filter((item) => item.entry.kind !== 'wake' || item.line === lastWake)
  const window = contextWindow(entries, deps.config)
  const hasWake = entries.some((item) => item.entry.kind === 'wake')
  const now = deps.clock.now()
  const wake =
    hasWake || state.dreamCount === 0
      ? null
      : await buildWakeMessage(files, deps.store, deps.config, state, now, sleptSeconds(state, now))
  return { wake, digest: window.digest, messages: window.messages }
}

/** How long the creature has slept: the sleep in progress, or the last one that ended. */
function sleptSeconds(state: MindState, now: Date): number {
  if (state.sleeping) return (now.getTime() - Date.parse(state.sleeping.since)) / 1000
  return state.lastSleep?.seconds ?? 0
}
