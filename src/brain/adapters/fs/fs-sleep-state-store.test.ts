import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import lockfile from 'proper-lockfile'
import { describe, expect, it } from 'vitest'
import { makeStateDir, storeAt } from '../../../../test/support/ledger-store.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import { freshSleepState } from '../../core/sleep-state.ts'
import {
  sampleHistory,
  sampleSession,
  testSleepStateStore,
} from '../../ports/sleep-state-store.contract.ts'
import {
  createFsSleepStateStore,
  SLEEP_HISTORY_FILE,
  SLEEP_LOCK_FILE,
  SLEEP_STATE_FILE,
} from './fs-sleep-state-store.ts'

testSleepStateStore({ name: 'fs', make: async () => storeAt(await makeStateDir()) })

describe('fs sleep state store: files', () => {
  it('writes pretty JSON with a trailing newline to .sleep.json and .sleep-history.json', async () => {
    const stateDir = await makeStateDir()
    const store = storeAt(stateDir)
    await store.update((state) => ({
      state: { ...state, debt: 2 },
      result: null,
      history: sampleHistory('first'),
    }))
    const stateText = await readFile(join(stateDir, SLEEP_STATE_FILE), 'utf8')
    expect(stateText).toBe(`${JSON.stringify({ ...freshSleepState(), debt: 2 }, null, 2)}\n`)
    const historyText = await readFile(join(stateDir, SLEEP_HISTORY_FILE), 'utf8')
    expect(historyText).toBe(`${JSON.stringify([sampleHistory('first')], null, 2)}\n`)
    expect(existsSync(join(stateDir, SLEEP_LOCK_FILE))).toBe(false)
  })

  it('saves fire counts by replacing only the triggers; a file of another layout is rewritten', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    const trigger = {
      id: 'tr_a',
      when: 'release',
      remind: 'Run the smoke test',
      source: null,
      created_at: '2026-03-01T10:00:00.000Z',
      fired_count: 0,
      max_fires: 3,
    }
    const state = { ...freshSleepState(), sessions: [sampleSession('a', 2)], triggers: [trigger] }
    const fired = { ...state, triggers: [{ ...trigger, fired_count: 1 }] }
    const statePath = join(stateDir, SLEEP_STATE_FILE)
    const store = storeAt(stateDir)
    const countFire = () =>
      store.update((current) => ({
        state: { ...current, triggers: current.triggers.map((t) => ({ ...t, fired_count: 1 })) },
        result: null,
      }))
    for (const written of [`${JSON.stringify(state, null, 2)}\n`, JSON.stringify(state)]) {
      await writeFile(statePath, written)
      await countFire()
      expect(await readFile(statePath, 'utf8')).toBe(`${JSON.stringify(fired, null, 2)}\n`)
      expect(await store.read()).toEqual(fired)
    }
  })

  it('reads defaults without creating a missing state folder; update creates it', async () => {
    const stateDir = await makeStateDir()
    const store = storeAt(stateDir)
    expect(await store.read()).toEqual(freshSleepState())
    expect(await store.readHistory()).toEqual([])
    expect(existsSync(stateDir)).toBe(false)
    await store.update((state) => ({ state: { ...state, debt: 1 }, result: null }))
    expect(existsSync(join(stateDir, SLEEP_STATE_FILE))).toBe(true)
  })

  it('fills defaults for fields missing from a hand-written file', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    await writeFile(
      join(stateDir, SLEEP_STATE_FILE),
      '{"debt": 3, "sessions": [{"session_id": "x"}]}',
    )
    const state = await storeAt(stateDir).read()
    expect(state.debt).toBe(3)
    expect(state.bookmarks).toEqual([])
    expect(state.sessions[0]).toEqual({
      ...sampleSession('x', null),
      transcript_path: null,
      stopped_at: null,
      last_assistant_message: null,
      change_count: null,
      tool_count: null,
    })
  })

  it('skips the write when a change returns the same state', async () => {
    const stateDir = await makeStateDir()
    const store = storeAt(stateDir)
    await store.update((state) => ({ state, result: null }))
    expect(existsSync(join(stateDir, SLEEP_STATE_FILE))).toBe(false)
    await store.update((state) => ({ state: { ...state, debt: 1 }, result: null }))
    const before = await stat(join(stateDir, SLEEP_STATE_FILE))
    await new Promise((resolve) => setTimeout(resolve, 20))
    await store.update((state) => ({ state, result: null }))
    const after = await stat(join(stateDir, SLEEP_STATE_FILE))
    expect(after.mtimeMs).toBe(before.mtimeMs)
  })
})

describe('fs sleep state store: corrupt and legacy files', () => {
  const quarantined = '.sleep.json.corrupt-2026-03-01T12-34-56.789Z'

  it.each([
    ['truncated JSON', '{"debt": 4, "sessions": ['],
    // A nonsense count is repaired (sleep-state.ts); a list that is not a list cannot be.
    ['a schema failure', '{"sessions": "lots"}'],
    ['not an object', '[1, 2]'],
  ])('sets aside %s, warns, and carries on from defaults', async (_, text) => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    await writeFile(join(stateDir, SLEEP_STATE_FILE), text)
    const warnings: string[] = []
    const store = storeAt(stateDir, warnings)
    expect(await store.read()).toEqual(freshSleepState())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(quarantined)
    expect(await readFile(join(stateDir, quarantined), 'utf8')).toBe(text)
    expect(existsSync(join(stateDir, SLEEP_STATE_FILE))).toBe(false)
    await store.update((state) => ({ state: { ...state, debt: state.debt + 2 }, result: null }))
    expect((await store.read()).debt).toBe(2)
    expect(warnings).toHaveLength(1)
  })

  it('sets a corrupt file aside inside update too, then applies the change', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    await writeFile(join(stateDir, SLEEP_STATE_FILE), 'not json')
    const warnings: string[] = []
    const store = storeAt(stateDir, warnings)
    await store.update((state) => ({ state: { ...state, debt: state.debt + 1 }, result: null }))
    expect((await store.read()).debt).toBe(1)
    expect(warnings[0]).toContain('invalid JSON')
    expect(await readdir(stateDir)).toContain(quarantined)
  })

  it('sets aside a corrupt history file and starts a new history', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    await writeFile(join(stateDir, SLEEP_HISTORY_FILE), '[{"date": 5}]')
    const warnings: string[] = []
    const store = storeAt(stateDir, warnings)
    expect(await store.readHistory()).toEqual([])
    expect(warnings[0]).toContain('.sleep-history.json.corrupt-2026-03-01T12-34-56.789Z')
    await store.update((state) => ({ state, result: null, history: sampleHistory('new') }))
    expect((await store.readHistory()).map((entry) => entry.summary)).toEqual(['new'])
  })

  it('moves a legacy sleep_history array out of .sleep.json into .sleep-history.json', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    const legacy = [
      {
        date: '2026-02-27',
        summary: 'old two',
        debt_before: 6,
        debt_after: 0,
        sessions_processed: 2,
        bookmarks_processed: 3,
      },
      {
        date: '2026-02-20',
        summary: 'old one',
        debt_before: 9,
        debt_after: 0,
        sessions_processed: 4,
      },
    ]
    await writeFile(
      join(stateDir, SLEEP_STATE_FILE),
      JSON.stringify({ debt: 4, sleep_history: legacy }),
    )
    await writeFile(
      join(stateDir, SLEEP_HISTORY_FILE),
      JSON.stringify([sampleHistory('already moved')]),
    )
    const store = storeAt(stateDir)
    expect(await store.read()).toEqual({ ...freshSleepState(), debt: 4 })
    const summaries = ['already moved', 'old two', 'old one']
    expect((await store.readHistory()).map((entry) => entry.summary)).toEqual(summaries)

    await store.update((state) => ({ state, result: null }))
    const file = JSON.parse(await readFile(join(stateDir, SLEEP_STATE_FILE), 'utf8'))
    expect(file).not.toHaveProperty('sleep_history')
    expect(file.debt).toBe(4)
    const history = await store.readHistory()
    expect(history.map((entry) => entry.summary)).toEqual(summaries)
    expect(history[2]).toMatchObject({
      consolidated_at: null,
      bookmarks_processed: 0,
      session_ids: [],
    })

    await store.update((state) => ({ state, result: null, history: sampleHistory('newest') }))
    expect((await store.readHistory()).map((entry) => entry.summary)).toEqual([
      'newest',
      ...summaries,
    ])
  })

  it('finds a legacy history whose key is written with a \\u escape', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    const entry = {
      date: '2026-02-20',
      summary: 'escaped',
      debt_before: 3,
      debt_after: 0,
      sessions_processed: 1,
    }
    const text = `{"debt": 1, "sleep\\u005fhistory": ${JSON.stringify([entry])}}`
    await writeFile(join(stateDir, SLEEP_STATE_FILE), text)
    const history = await storeAt(stateDir).readHistory()
    expect(history.map((item) => item.summary)).toEqual(['escaped'])
  })
})

describe('fs sleep state store: locking', () => {
  it('fails with STATE_LOCKED, naming the lock, when a live holder keeps the lock', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    const lockPath = join(stateDir, SLEEP_LOCK_FILE)
    const release = await lockfile.lock(stateDir, {
      lockfilePath: lockPath,
      realpath: false,
      stale: 10_000,
    })
    try {
      const store = createFsSleepStateStore({ stateDir, warn: () => {}, lockWaitMs: 300 })
      const error = await store
        .update((state) => ({ state, result: null }))
        .catch((caught) => caught)
      expect(error).toBeInstanceOf(SomnusError)
      expect((error as SomnusError).code).toBe('STATE_LOCKED')
      expect((error as SomnusError).message).toContain(lockPath)
    } finally {
      await release()
    }
  })

  it('takes over a lock whose holder died (not refreshed within the stale time)', async () => {
    const stateDir = await makeStateDir()
    const lockPath = join(stateDir, SLEEP_LOCK_FILE)
    await mkdir(lockPath, { recursive: true })
    const longAgo = new Date(Date.now() - 60_000)
    await utimes(lockPath, longAgo, longAgo)
    const started = Date.now()
    await storeAt(stateDir).update((state) => ({ state: { ...state, debt: 7 }, result: null }))
    expect(Date.now() - started).toBeLessThan(2_000)
    expect((await storeAt(stateDir).read()).debt).toBe(7)
  })
})
