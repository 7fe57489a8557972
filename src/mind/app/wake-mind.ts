/**
 * Wake-up: the seed's wake message (when, how long, the last reflection and priority, recent
 * observations, where the full history is), logged into the conversation. After a restart the
 * same message is rebuilt from disk.
 */

import { countTokens } from '../../engine/core/tokens.ts'
import type { MindConfig } from '../core/mind-config.ts'
import type { MindState } from '../core/mind-state.ts'
import { observationEntries, parseObservations } from '../core/observations-file.ts'
import { byNewestEvidence, openBusiness } from '../core/open-items.ts'
import { chooseRecent, datedLine, wakeMessage } from '../core/wake-message.ts'
import type { MindFiles, MindStore } from '../ports/mind-store.ts'
import { type MindDeps, writeState } from './mind-deps.ts'
import { dreamEntries } from './mind-records.ts'
import { withMind } from './with-mind.ts'

/** What waking did. */
export interface WakeResult {
  message: string
  sleptSeconds: number
  cycle: number
  /** False when the creature was not asleep (a restart): nothing was logged or counted. */
  wasAsleep: boolean
  /** True when woken before the sleep's end. */
  early: boolean
}

/** Ends the current sleep (if any) and returns the wake message. */
export async function wakeMind(deps: MindDeps): Promise<WakeResult> {
  return withMind(deps, async (files, state) => {
    const now = deps.clock.now()
    const sleep = state.sleeping
    const next: MindState = sleep
      ? { ...state, sleeping: null, lastSleep: sleep, cycle: state.cycle + 1 }
      : state
    const slept = sleep ? (now.getTime() - Date.parse(sleep.since)) / 1000 : 0
    const message = await buildWakeMessage(files, deps.store, deps.config, next, now, slept)
    if (sleep) {
      await files.appendLog('conversation', [
        JSON.stringify({ t: now.toISOString(), role: 'system', kind: 'wake', content: message }),
      ])
      await writeState(files, next)
    }
    return {
      message,
      sleptSeconds: Math.round(slept),
      cycle: next.cycle,
      wasAsleep: sleep !== null,
      early: sleep !== null && now.getTime() < Date.parse(sleep.wakeAt),
    }
  })
}

/** The wake message for `state` from what is on disk. */
export async function buildWakeMessage(
  files: MindFiles,
  store: MindStore,
  config: MindConfig,
  state: MindState,
  now: Date,
  sleptSeconds: number,
): Promise<string> {
  const last = dreamEntries(await files.readLog('dreams')).at(-1)
  const document = parseObservations((await files.readDocument('observations')) ?? '')
  const entries = observationEntries(document)
  const { open } = openBusiness(entries)
  const shown = new Set(open.map((item) => item.index))
  const standing = open.filter((item) => item.kind !== 'failure')
  const failures = byNewestEvidence(open.filter((item) => item.kind === 'failure'))
  const recent = chooseRecent(
    entries.filter((_, index) => !shown.has(index)),
    (entry) => countTokens(datedLine(entry)) + 1,
    config.wakeBudgetTokens,
    config.wakeObservations,
  )
  return wakeMessage(
    {
      now,
      sleptSeconds,
      cycle: state.cycle,
      reflection: last?.reflection ?? null,
      priority: last?.priority ?? null,
      standingOrders: standing.map((item) => datedLine(item.observation)),
      openPriorities: failures.map((item) => datedLine(item.observation)),
      recentObservations: recent.map(datedLine),
      folder: store.location,
    },
    config,
  )
}
