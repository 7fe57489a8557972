/**
 * `set_sleep`: decides whether a sleep consolidates (seed 004's rules, docs/design/origins.md), and
 * if so consolidates: claims the cycle's lines under the lock, asks the model outside it (other
 * processes keep recording meanwhile), parses the answer strictly, retries a malformed one, records
 * a failure as a RED observation, and commits the dream (deep sleep every Nth) under the lock
 * again.
 */
import { SomnusError } from '../../engine/core/errors.ts'
import type { Usage } from '../../engine/core/model-results.ts'
import { activityLines, activityUnits, clockTime, type NumberedEntry } from '../core/activity.ts'
import type { ParsedConsolidation } from '../core/consolidation-format.ts'
import { keepWhatMatters, readCycle } from '../core/cycle-meaning.ts'
import { lightConsolidation } from '../core/extractive-consolidation.ts'
import { type ConsolidationKind, decideSleep, isDeepSleep, sleepSeconds } from '../core/fatigue.ts'
import type { DreamEntry, MindState, SleepPeriod, SleepReason } from '../core/mind-state.ts'
import { observationsBlock } from '../core/observations-file.ts'
import { plainLine, plainText } from '../core/plain-text.ts'
import type { MindFiles } from '../ports/mind-store.ts'
import { askConsolidation, failedConsolidation } from './ask-consolidation.ts'
import { commitConsolidation } from './commit-consolidation.ts'
import { type MindDeps, readState, writeState } from './mind-deps.ts'
import { conversationEntries, dreamEntries } from './mind-records.ts'
import { withMind } from './with-mind.ts'

/** What a sleep did. */
export interface SleepResult {
  consolidation: ConsolidationKind | 'failed'
  reason: string
  /** The dream written, or null for a pause. */
  dream: DreamEntry | null
  deep: boolean
  sleep: SleepPeriod
  usage: Usage
}

/** How to sleep. */
export interface SleepRequest {
  seconds: number
  /** Fatigue: consolidate whatever the interval rules say. */
  forced?: boolean
  signal?: AbortSignal | undefined
}

const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 }

/** Puts the creature to sleep; consolidates when the rules say so. */
export async function sleepMind(deps: MindDeps, request: SleepRequest): Promise<SleepResult> {
  const forced = request.forced ?? false
  const { config } = deps
  if (
    !Number.isFinite(request.seconds) ||
    request.seconds < config.minSleepSeconds ||
    request.seconds > config.maxSleepSeconds
  ) {
    throw new SomnusError(
      'USAGE',
      `Sleep seconds must be between ${config.minSleepSeconds} and ${config.maxSleepSeconds} (got ${request.seconds}).`,
    )
  }
  const reason: SleepReason = forced ? 'fatigue' : 'voluntary'
  const hold: { current: { release(): void } | null } = { current: null }
  try {
    return await sleepWithHold()
  } finally {
    hold.current?.release()
  }

  async function sleepWithHold(): Promise<SleepResult> {
    const claimed = await withMind(deps, async (files, state) => {
      const now = deps.clock.now()
      const lines = await files.readLog('conversation')
      // What the mind itself injected (wake messages, warnings) is not the creature's experience.
      const entries = conversationEntries(lines).filter(
        (item) => item.line > state.consolidatedLines && item.entry.kind === undefined,
      )
      const decision = decideSleep(state, config, {
        seconds: request.seconds,
        forced,
        now,
        newLines: entries.length,
      })
      // A claim whose holder is alive: only a pause. A claim without one was left by a killed
      // process: taken over (its model answer was never written, so nothing is lost or doubled).
      hold.current = decision.consolidation === 'none' ? null : await deps.store.holdConsolidation()
      const busy = decision.consolidation !== 'none' && hold.current === null
      if (decision.consolidation === 'none' || busy) {
        const sleep = period(now, request.seconds, reason)
        await writeState(files, { ...state, sleeping: sleep })
        const why =
          busy && decision.consolidation !== 'none'
            ? 'another process is consolidating: only a pause'
            : decision.reason
        return { done: pause(why, sleep) }
      }
      const id = deps.ids.next('dream')
      const pending = {
        id,
        startedAt: now.toISOString(),
        throughLine: lines.length,
        actions: state.actionsSinceDream,
        messages: state.messagesSinceDream,
      }
      if (decision.consolidation === 'light') {
        const light = lightConsolidation(
          activityUnits(entries),
          lastPriority(await files.readLog('dreams')),
        )
        const result = await commit(deps, files, { ...state, pending }, entries, {
          kind: 'light',
          parsed: light,
          model: 'none',
          seconds: request.seconds,
          reason,
        })
        return { done: { ...result, reason: decision.reason } }
      }
      await writeState(files, { ...state, pending })
      return { claim: { id, entries, state, reason: decision.reason } }
    })
    if ('done' in claimed) return claimed.done as SleepResult

    const { id, entries } = claimed.claim
    const deep = isDeepSleep(claimed.claim.state.dreamCount + 1, config)
    const answer = await askConsolidation(deps, entries, deep, request.signal)
    return withMind(deps, async (files) => {
      const state = await readState(deps, files)
      if (state.pending?.id !== id) {
        // Taken over after our claim went stale: the other run's dream stands; ours is dropped.
        const sleep = period(deps.clock.now(), request.seconds, reason)
        return pause('another process took this consolidation over: only a pause', sleep)
      }
      const result = await commit(deps, files, state, entries, {
        kind: answer.ok ? 'full' : 'failed',
        parsed: answer.ok
          ? answer.value
          : failedConsolidation(answer.problem, entries, deps.clock.now()),
        model: deps.model.name,
        seconds: request.seconds,
        reason,
        usage: answer.usage,
      })
      return {
        ...result,
        reason: answer.ok ? claimed.claim.reason : `consolidation failed: ${answer.problem}`,
      }
    })
  }
}

/** Turns the answer into the pending commit, records it in the state, and writes it. */
async function commit(
  deps: MindDeps,
  files: MindFiles,
  state: MindState,
  entries: readonly NumberedEntry[],
  result: {
    kind: DreamEntry['kind']
    parsed: ParsedConsolidation
    model: string
    seconds: number
    reason: SleepReason
    usage?: Usage
  },
): Promise<Omit<SleepResult, 'reason'>> {
  const pending = state.pending
  if (!pending) throw new Error('commit without a claimed consolidation')
  const now = deps.clock.now()
  const dreamNumber = state.dreamCount + 1
  const deep = isDeepSleep(dreamNumber, deps.config)
  const allLines = entries.map((item) => item.line)
  // A model's answer is outside text too: shown in terminals and markdown, so made inert.
  // Whatever the model kept, a person's orders, the creature's promises and unfixed failures are RED.
  const kept = keepWhatMatters(result.parsed.observations, readCycle(activityLines(entries)), {
    failures: true,
  })
  const detail = kept.map((item) => ({
    priority: item.priority,
    date: eventDate(item, entries, now),
    time: item.time,
    text: plainLine(item.text),
    sources: item.lines.length > 0 ? item.lines : allLines,
  }))
  const dream: DreamEntry = {
    id: pending.id,
    t: now.toISOString(),
    actions: pending.actions,
    messages: pending.messages,
    kind: result.kind,
    reflection: plainText(result.parsed.reflection).trim(),
    priority: plainLine(result.parsed.priority.split('\n')[0] ?? '').slice(0, 200),
    observations: detail.length,
    deep,
    lines: entries.length > 0 ? [entries[0]?.line ?? 0, entries.at(-1)?.line ?? 0] : null,
    model: result.model,
    detail,
  }
  const current = (await files.readDocument('observations')) ?? ''
  const block = observationsBlock(current, { id: dream.id, date: dream.t.slice(0, 10) }, detail)
  const forced = result.reason === 'fatigue'
  const sleep = period(
    now,
    sleepSeconds(result.seconds, deps.config, { forced, deep }),
    result.reason,
  )
  const journaled: MindState = {
    ...state,
    pending: { ...pending, commit: { dream, observationsBlock: block, sleep } },
  }
  await writeState(files, journaled)
  await commitConsolidation(deps, files, journaled)
  return {
    consolidation: result.kind === 'failed' ? 'failed' : result.kind,
    dream,
    deep,
    sleep,
    usage: result.usage ?? NO_USAGE,
  }
}

/**
 * The day an observation's event happened: its cited lines' first, else the cycle's last line at
 * the same HH:MM, else the cycle's last line's (an uncited, untimed fact), else the dream's.
 */
function eventDate(
  item: { time: string; lines: readonly number[] },
  entries: readonly NumberedEntry[],
  now: Date,
): string {
  const cited = entries.find((entry) => item.lines.includes(entry.line))
  const sameTime = entries.filter((entry) => clockTime(entry.entry.t) === item.time).at(-1)
  const chosen = cited ?? sameTime ?? entries.at(-1)
  const at = chosen ? Date.parse(chosen.entry.t) : Number.NaN
  return (Number.isFinite(at) ? new Date(at) : now).toISOString().slice(0, 10)
}

function period(now: Date, seconds: number, reason: SleepReason): SleepPeriod {
  return {
    since: now.toISOString(),
    wakeAt: new Date(now.getTime() + seconds * 1000).toISOString(),
    seconds,
    reason,
  }
}

function pause(reason: string, sleep: SleepPeriod): SleepResult {
  return { consolidation: 'none', reason, dream: null, deep: false, sleep, usage: NO_USAGE }
}

function lastPriority(lines: readonly string[]): string | null {
  const last = dreamEntries(lines)
    .filter((entry) => entry.kind !== 'failed')
    .at(-1)
  return last?.priority ?? null
}
