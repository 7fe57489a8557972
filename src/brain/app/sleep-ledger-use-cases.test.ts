import { describe, expect, it } from 'vitest'
import { type Config, resolveConfig } from '../../engine/core/config.ts'
import { fixedClock } from '../../engine/ports/clock.ts'
import { sequentialIds } from '../../engine/ports/id-generator.ts'
import { createMemoryBrainFiles } from '../adapters/memory/memory-brain-files.ts'
import { createMemorySleepStateStore } from '../adapters/memory/memory-sleep-state-store.ts'
import { createMemoryUnitOfWork } from '../adapters/memory/memory-unit-of-work.ts'
import { addBookmark } from './add-bookmark.ts'
import { addSleepDebt } from './add-sleep-debt.ts'
import { addTrigger } from './add-trigger.ts'
import type { Brain } from './brain.ts'
import { finishSleep } from './finish-sleep.ts'
import { getConsolidationDirective } from './get-consolidation-directive.ts'
import { getSleepHistory } from './get-sleep-history.ts'
import { getSleepStatus } from './get-sleep-status.ts'
import { listBookmarks } from './list-bookmarks.ts'
import { removeTrigger } from './remove-trigger.ts'
import { startSleep } from './start-sleep.ts'

const NOW = '2026-03-01T12:00:00.000Z'

function memoryBrain(config: Partial<Config> = {}): Brain {
  const state = createMemorySleepStateStore()
  const files = createMemoryBrainFiles()
  const clock = fixedClock(NOW)
  const ids = sequentialIds()
  const warn = () => {}
  return {
    root: '/brain/_agent_context',
    projectDir: '/brain',
    config: { ...resolveConfig({ fileText: null, filePath: 'somnus.json', env: {} }), ...config },
    state,
    files,
    unitOfWork: createMemoryUnitOfWork({ files, state, clock, ids, warn }),
    clock,
    ids,
    warn,
  }
}

describe('ledger use cases on an in-memory brain', () => {
  it('add debt, bookmark, start, finish: status and history follow', async () => {
    const brain = memoryBrain()
    const added = await addSleepDebt(brain, { score: 3, description: 'Designed auth' })
    expect(added).toMatchObject({ debt: 3, level: 'Alert', session: { score: 3 } })
    await addSleepDebt(brain, { score: 3, description: 'Designed billing' })
    const bookmark = await addBookmark(brain, { message: 'Tokens stay server-side', salience: 3 })
    expect(bookmark).toEqual({
      id: 'bm_00000001',
      message: 'Tokens stay server-side',
      salience: 3,
      created_at: NOW,
      session_id: null,
      task_slug: null,
    })
    const status = await getSleepStatus(brain)
    expect(status).toMatchObject({ debt: 6, level: 'Drowsy', policy: 'seed', bookmarks_pending: 1 })

    expect(await startSleep(brain)).toEqual({ started_at: NOW, previous_started_at: null })
    const finished = await finishSleep(brain, 'Folded auth and billing')
    expect(finished).toMatchObject({ had_epoch: true, debt: 0, level: 'Alert', sessions_kept: 0 })
    // Both entries were stopped at NOW, which is not after the epoch NOW: both consolidated.
    expect(finished.history).toMatchObject({
      debt_before: 6,
      sessions_processed: 2,
      bookmarks_processed: 1,
    })
    expect((await getSleepHistory(brain, 10)).map((entry) => entry.summary)).toEqual([
      'Folded auth and billing',
    ])
    expect((await getSleepStatus(brain)).recent_history).toHaveLength(1)
  })

  it('refuses a bad history limit', async () => {
    await expect(getSleepHistory(memoryBrain(), 0)).rejects.toMatchObject({ code: 'USAGE' })
  })

  it('lists bookmarks by salience, newest first within one salience', async () => {
    const brain = memoryBrain()
    await addBookmark(brain, { message: 'a', salience: 2 })
    await addBookmark(brain, { message: 'b', salience: 3 })
    await addBookmark(brain, { message: 'c', salience: 2 })
    expect((await listBookmarks(brain)).map((entry) => entry.message)).toEqual(['b', 'c', 'a'])
  })

  it('adds and removes triggers with generated ids', async () => {
    const brain = memoryBrain()
    const trigger = await addTrigger(brain, { when: 'auth', remind: 'refresh first' })
    expect(trigger).toMatchObject({ id: 'trg_00000001', max_fires: 3, fired_count: 0 })
    expect(await removeTrigger(brain, trigger.id)).toEqual(trigger)
    await expect(removeTrigger(brain, trigger.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('builds the directive from the configured policy and rhythm', async () => {
    const seed = memoryBrain({ rhythm_sessions: 2 })
    expect(await getConsolidationDirective(seed)).toBeNull()
    await seed.state.update((state) => ({
      state: { ...state, sessions_since_last_sleep: 2 },
      result: null,
    }))
    expect(await getConsolidationDirective(seed)).toContain('rhythm: every 2')
    await addSleepDebt(seed, { score: 3, description: 'x' })
    await addSleepDebt(seed, { score: 3, description: 'y' })
    await addSleepDebt(seed, { score: 3, description: 'z' })
    await addSleepDebt(seed, { score: 1, description: 'w' })
    expect(await getConsolidationDirective(seed)).toContain('>>> CONSOLIDATION REQUIRED <<<')

    const calibrated = memoryBrain({ scoring: 'calibrated' })
    await addSleepDebt(calibrated, { score: 10, description: 'big' })
    expect(await getConsolidationDirective(calibrated)).toBeNull()
    expect((await getSleepStatus(calibrated)).level).toBe('Alert')
  })
})
