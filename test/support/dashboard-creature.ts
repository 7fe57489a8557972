/**
 * A creature for the dashboard tests: a LoCoMo dev conversation replayed into a creature folder
 * (as bench/mind-retention.ts does), with a tool call after every turn and a voluntary sleep
 * after every third session only, so that fatigue rises past the warning (60) and the limit (80)
 * forces sleeps.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConversation, type Session } from '../../bench/locomo-data.ts'
import { sequentialIds } from '../../src/engine/ports/id-generator.ts'
import { createMind } from '../../src/mind/create-mind.ts'
import { LOCOMO_DIR } from './shared-data.ts'

/** What the replay did, for assertions. */
export interface ReplayedCreature {
  folder: string
  dreams: number
  forcedSleeps: number
}

/** Replays conversation `id` (default 26) into a new creature folder. */
export async function replayCreature(id = '26'): Promise<ReplayedCreature> {
  const folder = join(mkdtempSync(join(tmpdir(), 'somnus-dashboard-mind-')), '.self')
  const { sessions } = loadConversation(join(LOCOMO_DIR, `${id}.json`))
  let now = 0
  const mind = createMind({ folder, clock: { now: () => new Date(now) }, ids: sequentialIds() })
  const speakers = [...new Set(sessions.flatMap((session) => session.units.map((u) => u.speaker)))]
  let dreams = 0
  let forcedSleeps = 0
  for (const [index, session] of sessions.entries()) {
    now = startOf(session)
    await mind.wake()
    for (const unit of session.units) {
      now += 30_000
      const user = unit.speaker === speakers[0]
      await mind.record({
        role: user ? 'user' : 'assistant',
        name: unit.speaker,
        content: unit.text,
      })
      now += 5_000
      const acted = await mind.action({
        tool: 'recall',
        content: `looked up "${unit.text.split(/\s+/).slice(0, 6).join(' ')}" -> 3 hits`,
      })
      if (acted.forcedSleep) {
        forcedSleeps += 1
        if (acted.forcedSleep.dream) dreams += 1
        now += 3_600_000
        await mind.wake()
      }
    }
    if (index % 3 !== 2) continue
    now += 60_000
    const slept = await mind.sleep({ seconds: 3_600 })
    if (slept.dream) dreams += 1
  }
  return { folder, dreams, forcedSleeps }
}

const MONTHS =
  'January February March April May June July August September October November December'.split(' ')

/** The session's first timestamp (`1:56 pm on 8 May, 2023`) as epoch milliseconds. */
function startOf(session: Session): number {
  const stamp = session.units[0]?.timestamp ?? ''
  const match = /(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})/i.exec(stamp)
  if (!match) return Date.UTC(2023, 0, 1)
  const [, hour, minute, half, day, month, year] = match
  const hours = (Number(hour) % 12) + (half?.toLowerCase() === 'pm' ? 12 : 0)
  return Date.UTC(Number(year), MONTHS.indexOf(month ?? ''), Number(day), hours, Number(minute))
}
