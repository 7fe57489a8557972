/** The behaviour every `SleepStateStore` adapter must show; each adapter's test runs this suite. */
import { expect, it } from 'vitest'
import {
  type ContractOptions,
  describeContract,
} from '../../engine/ports/describe-contract.contract.ts'
import {
  freshSleepState,
  type SessionRecord,
  type SleepHistoryEntry,
  type SleepState,
} from '../core/sleep-state.ts'
import type { QueuedStop } from '../core/stop-inbox.ts'
import type { SleepStateStore } from './sleep-state-store.ts'

/** A scored session record for tests. */
export function sampleSession(id: string, score: number | null): SessionRecord {
  return {
    session_id: id,
    transcript_path: `/transcripts/${id}.jsonl`,
    stopped_at: '2026-03-01T10:00:00.000Z',
    last_assistant_message: `Finished ${id}`,
    change_count: 2,
    tool_count: 9,
    score,
    task_slugs: [],
  }
}

/** A history entry for tests. */
export function sampleHistory(summary: string): SleepHistoryEntry {
  return {
    date: '2026-03-01',
    consolidated_at: '2026-03-01T12:00:00.000Z',
    summary,
    debt_before: 7,
    debt_after: 0,
    sessions_processed: 3,
    bookmarks_processed: 1,
    session_ids: ['a', 'b', 'c'],
    bookmark_ids: [],
  }
}

/** A queued Stop scoring `score`, as a Stop that could not take the lock writes it. */
export function queuedStop(id: string, sessionId: string, score: number): QueuedStop {
  return {
    id,
    session_id: sessionId,
    transcript_path: `/transcripts/${sessionId}.jsonl`,
    last_assistant_message: `Finished ${sessionId}`,
    outcome: { kind: 'scored', change_count: 2, tool_count: 9, score, task_slugs: [] },
    now: '2026-03-01T10:00:00.000Z',
  }
}

/** Adds `session` first and its score to the debt: what the Stop hook does. */
function withSession(state: SleepState, session: SessionRecord): SleepState {
  return {
    ...state,
    sessions: [session, ...state.sessions],
    debt: state.debt + (session.score ?? 0),
  }
}

/** Registers the contract tests for adapters made by `make` (a fresh, empty store each call). */
export function testSleepStateStore(options: ContractOptions<SleepStateStore>): void {
  const { make } = options
  describeContract('SleepStateStore', options, () => {
    it('starts with fresh defaults and no history', async () => {
      const store = await make()
      expect(await store.read()).toEqual(freshSleepState())
      expect(await store.readHistory()).toEqual([])
    })

    it('reads back what an update wrote and returns the change result', async () => {
      const store = await make()
      const result = await store.update((state) => ({
        state: { ...withSession(state, sampleSession('s1', 2)), last_sleep: '2026-02-27' },
        result: 'written',
      }))
      expect(result).toBe('written')
      const state = await store.read()
      expect(state.debt).toBe(2)
      expect(state.last_sleep).toBe('2026-02-27')
      expect(state.sessions).toEqual([sampleSession('s1', 2)])
    })

    it('keeps keys it does not know, at the top level and inside records', async () => {
      const store = await make()
      await store.update((state) => ({
        state: {
          ...state,
          future_field: { nested: [1, 2] },
          sessions: [{ ...sampleSession('s1', 1), novel_tokens: 12_345 }],
        },
        result: null,
      }))
      await store.update((state) => ({ state: { ...state, debt: state.debt + 1 }, result: null }))
      const state = (await store.read()) as SleepState & { future_field?: unknown }
      expect(state.future_field).toEqual({ nested: [1, 2] })
      expect(state.sessions[0]).toMatchObject({ novel_tokens: 12_345 })
      expect(state.debt).toBe(1)
    })

    it('fills in defaults for fields a change left out', async () => {
      const store = await make()
      await store.update(() => ({ state: { debt: 5 } as unknown as SleepState, result: null }))
      expect(await store.read()).toEqual({ ...freshSleepState(), debt: 5 })
    })

    it('never loses an update when many run at once', async () => {
      const store = await make()
      const count = 50
      await Promise.all(
        Array.from({ length: count }, (_, index) =>
          store.update((state) => ({
            state: withSession(state, sampleSession(`s${index}`, (index % 3) + 1)),
            result: null,
          })),
        ),
      )
      const state = await store.read()
      expect(state.sessions).toHaveLength(count)
      const expected = Array.from({ length: count }, (_, index) => (index % 3) + 1)
      expect(state.debt).toBe(expected.reduce((sum, score) => sum + score, 0))
    })

    it('puts each new history entry first and leaves history alone otherwise', async () => {
      const store = await make()
      await store.update((state) => ({ state, result: null, history: sampleHistory('first') }))
      await store.update((state) => ({ state: { ...state, debt: 3 }, result: null }))
      await store.update((state) => ({ state, result: null, history: sampleHistory('second') }))
      const history = await store.readHistory()
      expect(history.map((entry) => entry.summary)).toEqual(['second', 'first'])
      expect(history[1]).toEqual(sampleHistory('first'))
    })

    it('leaves the ledger untouched when a change throws, and keeps working', async () => {
      const store = await make()
      await store.update((state) => ({ state: { ...state, debt: 4 }, result: null }))
      await expect(
        store.update(() => {
          throw new Error('bad input')
        }),
      ).rejects.toThrow('bad input')
      expect((await store.read()).debt).toBe(4)
      await store.update((state) => ({ state: { ...state, debt: state.debt + 1 }, result: null }))
      expect((await store.read()).debt).toBe(5)
    })

    it('shows a queued Stop at once and merges it exactly once, whatever runs next', async () => {
      const store = await make()
      const stop = queuedStop('q1', 'queued-session', 3)
      await store.queue(stop)
      await store.queue(queuedStop('q2', 'queued-other', 2))
      expect((await store.read()).debt).toBe(5)
      await store.update((state) => ({ state: { ...state, debt: state.debt + 1 }, result: null }))
      await store.update((state) => ({ state, result: null }))
      const state = await store.read()
      expect(state.sessions.map((session) => session.session_id).sort()).toEqual([
        'queued-other',
        'queued-session',
      ])
      expect(state.debt).toBe(6)
      expect(state.sessions_since_last_sleep).toBe(2)
    })

    it('keeps the later of two Stops of one session, the queued one older', async () => {
      const store = await make()
      await store.update((state) => ({
        state: withSession(state, {
          ...sampleSession('s1', 2),
          stopped_at: '2026-03-01T11:00:00.000Z',
        }),
        result: null,
      }))
      await store.queue({ ...queuedStop('old', 's1', 3), now: '2026-03-01T10:30:00.000Z' })
      await store.update((state) => ({ state, result: null }))
      const state = await store.read()
      expect(state.sessions).toHaveLength(1)
      expect(state.debt).toBe(2)
    })

    it('counts a Stop queued twice (pending, then scored, one instant) once, with its score, in either order', async () => {
      for (const order of [
        ['pending', 'scored'],
        ['scored', 'pending'],
      ] as const) {
        const store = await make()
        const scored = queuedStop(`scored-${order[0]}`, 's1', 3)
        const pending = {
          ...scored,
          id: `pending-${order[0]}`,
          outcome: { kind: 'pending' } as const,
        }
        for (const kind of order) await store.queue(kind === 'pending' ? pending : scored)
        await store.update((state) => ({ state, result: null }))
        await store.update((state) => ({ state, result: null }))
        const state = await store.read()
        expect(state.sessions.map((session) => session.score)).toEqual([3])
        expect(state.debt).toBe(3)
        expect(state.sessions_since_last_sleep).toBe(1)
      }
    })

    it('hands out copies: changing a read value does not change the ledger', async () => {
      const store = await make()
      await store.update((state) => ({
        state: withSession(state, sampleSession('s1', 1)),
        result: null,
      }))
      const copy = await store.read()
      copy.sessions.push(sampleSession('intruder', 3))
      copy.debt = 99
      const state = await store.read()
      expect(state.sessions).toHaveLength(1)
      expect(state.debt).toBe(1)
    })
  })
}
