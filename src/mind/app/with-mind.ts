/** The one way to change a creature: alone, after recovering what a killed process left. */
import type { MindState } from '../core/mind-state.ts'
import type { MindFiles } from '../ports/mind-store.ts'
import { commitConsolidation } from './commit-consolidation.ts'
import { type MindDeps, readState, writeState } from './mind-deps.ts'
import { conversationEntries } from './mind-records.ts'

/**
 * Counts the lines a killed process logged but did not count: actions (tool lines) and messages
 * past `loggedLines`; the mind's own lines (warnings, wake messages) count for nothing.
 */
async function countUnaccounted(files: MindFiles, state: MindState): Promise<MindState> {
  if (state.loggedLines === undefined) return state
  const total = await files.countLines('conversation')
  if (total <= state.loggedLines) return state
  const fresh = conversationEntries(await files.readLog('conversation')).filter(
    (item) => item.line > (state.loggedLines ?? total) && item.entry.kind === undefined,
  )
  const actions = fresh.filter((item) => item.entry.role === 'tool').length
  const next: MindState = {
    ...state,
    actionsSinceDream: state.actionsSinceDream + actions,
    messagesSinceDream: state.messagesSinceDream + fresh.length - actions,
  }
  await writeState(files, next)
  return { ...next, loggedLines: total }
}

/**
 * Runs `work` with the creature to itself and its state read, after finishing a consolidation
 * that a killed process left half-written (so every change starts from a whole state).
 */
export function withMind<T>(
  deps: MindDeps,
  work: (files: MindFiles, state: MindState) => Promise<T>,
): Promise<T> {
  return deps.store.exclusive(async (files) => {
    let state = await readState(deps, files)
    if (state.pending?.commit) state = await commitConsolidation(deps, files, state)
    state = await countUnaccounted(files, state)
    return work(files, state)
  })
}
