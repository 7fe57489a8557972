/** What every mind use case needs, and the one way to change a creature: alone, after recovery. */
import type { MindConfig } from '../../core/mind/mind-config.ts'
import type { MindState } from '../../core/mind/mind-state.ts'
import type { Clock } from '../../ports/clock.ts'
import type { ConsolidationModel } from '../../ports/consolidation-model.ts'
import type { IdGenerator } from '../../ports/id-generator.ts'
import type { MindFiles, MindStore } from '../../ports/mind-store.ts'
import { commitConsolidation } from './commit-consolidation.ts'
import { conversationEntries, parseMindState } from './mind-records.ts'

/** A creature's stores, model, settings, clock and ids. */
export interface MindDeps {
  store: MindStore
  model: ConsolidationModel
  config: MindConfig
  clock: Clock
  ids: IdGenerator
}

/** Reads the state (a new creature's when there is none). */
export async function readState(deps: MindDeps, files: MindFiles): Promise<MindState> {
  return parseMindState(await files.readState(), deps.store.location)
}

/** Writes the state, with the conversation lines it accounts for (only ever under the lock). */
export async function writeState(files: MindFiles, state: MindState): Promise<void> {
  const loggedLines = await files.countLines('conversation')
  await files.writeState(JSON.stringify({ ...state, loggedLines }, null, 2))
}

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
