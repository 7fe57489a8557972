/** What every mind use case needs, and how the creature's state is read and written. */

import type { Clock } from '../../engine/ports/clock.ts'
import type { IdGenerator } from '../../engine/ports/id-generator.ts'
import type { MindConfig } from '../core/mind-config.ts'
import type { MindState } from '../core/mind-state.ts'
import type { ConsolidationModel } from '../ports/consolidation-model.ts'
import type { MindFiles, MindStore } from '../ports/mind-store.ts'
import { parseMindState } from './mind-records.ts'

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
