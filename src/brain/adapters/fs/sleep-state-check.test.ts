import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  freshSleepState,
  SleepHistoryEntrySchema,
  type SleepState,
  SleepStateSchema,
} from '../../core/sleep-state.ts'
import { sampleSession } from '../../ports/sleep-state-store.contract.ts'
import { freshState } from './ledger-files.ts'
import { checkHistoryEntry, checkSleepState } from './sleep-state-check.ts'

/** JSON text of a value, key order included: equal text means an equal file once written. */
const textOf = (value: unknown) => JSON.stringify(value)

/** A value of a random JSON type, often of the right type for a ledger field. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 4 }),
  fc.constantFrom('1', 'x', ''),
  fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('a', 'b', '__proto__'), fc.integer(), { maxKeys: 2 }),
)

/** An object with some of `keys`, each good (from `good`) or random, plus maybe unknown keys. */
function record(keys: Record<string, fc.Arbitrary<unknown>>) {
  const entries = Object.entries(keys).map(([key, good]) =>
    fc.option(
      fc
        .oneof({ weight: 60, arbitrary: good }, { weight: 1, arbitrary: anyJson })
        .map((value) => [key, value] as const),
      { freq: 5 },
    ),
  )
  const extra = fc.array(
    fc.tuple(fc.constantFrom('zz', 'novel', 'future', 'zz', 'novel', '__proto__'), anyJson),
    { maxLength: 1 },
  )
  return fc.tuple(fc.tuple(...entries), extra, fc.boolean()).map(([known, unknown, shuffle]) => {
    const pairs = [...known.filter((pair) => pair !== null), ...unknown]
    if (shuffle) pairs.reverse()
    // Through JSON text, as the ledger arrives: `__proto__` becomes an own key.
    const body = pairs.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
    return JSON.parse(`{${body.join(',')}}`) as unknown
  })
}

const text = fc.string({ maxLength: 6 })
const maybeText = fc.option(text, { freq: 3 })
/** Values a hand-edited or broken ledger holds where a count belongs: repaired, never fatal. */
const nonsenseCount = fc.constantFrom(-5, -1, 2.5, 1e308, 2 ** 53, 101, 'NaN', '3', true, [], {})
const count = fc.oneof(
  { weight: 6, arbitrary: fc.option(fc.integer({ min: 0, max: 40 }), { freq: 3 }) },
  { weight: 1, arbitrary: nonsenseCount },
)
const session = record({
  session_id: text,
  transcript_path: maybeText,
  stopped_at: maybeText,
  last_assistant_message: fc.oneof(
    { weight: 8, arbitrary: maybeText },
    { weight: 1, arbitrary: fc.constantFrom('Done. '.repeat(700), 'x'.repeat(4_001)) },
  ),
  change_count: count,
  tool_count: count,
  score: count,
  task_slugs: fc.array(text, { maxLength: 2 }),
})
const bookmark = record({
  id: text,
  message: text,
  salience: fc.constantFrom(1, 2, 3),
  created_at: text,
  session_id: maybeText,
  task_slug: maybeText,
})
const trigger = record({
  id: text,
  when: text,
  remind: text,
  source: maybeText,
  created_at: text,
  fired_count: fc.oneof(fc.nat(5), nonsenseCount),
  max_fires: fc.oneof(fc.nat(5), nonsenseCount),
})
const compaction = record({
  timestamp: text,
  trigger: text,
  debt_at_compaction: fc.nat(),
  sessions_count: fc.nat(),
  bookmarks_count: fc.nat(),
})
const ledger = record({
  debt: fc.oneof(fc.integer(), nonsenseCount),
  last_sleep: maybeText,
  last_sleep_summary: maybeText,
  sleep_started_at: maybeText,
  last_consolidated_at: maybeText,
  sessions_since_last_sleep: fc.oneof(fc.nat(), nonsenseCount),
  sessions: fc.array(session, { maxLength: 3 }),
  bookmarks: fc.array(bookmark, { maxLength: 3 }),
  triggers: fc.array(trigger, { maxLength: 3 }),
  knowledge_access: fc.dictionary(
    fc.constantFrom('a', 'b', 'c', '__proto__'),
    record({ last_accessed: text, count: fc.nat() }),
    { maxKeys: 2 },
  ),
  dashboard_changes: fc.array(anyJson, { maxLength: 2 }),
  compaction_log: fc.array(compaction, { maxLength: 2 }),
})
const historyEntry = record({
  date: text,
  consolidated_at: maybeText,
  summary: text,
  debt_before: fc.integer(),
  debt_after: fc.integer(),
  sessions_processed: fc.nat(),
  bookmarks_processed: fc.nat(),
  session_ids: fc.array(text, { maxLength: 2 }),
  bookmark_ids: fc.array(text, { maxLength: 2 }),
})

describe('checkSleepState', () => {
  it('agrees with SleepStateSchema whenever it answers, and answers for valid plain data', () => {
    let answered = 0
    fc.assert(
      fc.property(ledger, (value) => {
        const checked = checkSleepState(value)
        const parsed = SleepStateSchema.safeParse(value)
        if (checked === undefined) {
          // Unsure is allowed only for invalid data or the odd `__proto__` key.
          if (parsed.success) expect(JSON.stringify(value)).toContain('__proto__')
          return
        }
        answered += 1
        expect(parsed.success).toBe(true)
        expect(textOf(checked)).toBe(textOf(parsed.data))
        expect(checked).toEqual(parsed.data)
      }),
      { numRuns: 3_000 },
    )
    expect(answered).toBeGreaterThan(50)
  })

  it('leaves odd values to the schema: NaN, undefined, class instances, a missing record', () => {
    expect(checkSleepState({ future: Number.NaN })).toBeUndefined()
    expect(checkSleepState({ future: undefined })).toBeUndefined()
    expect(checkSleepState({ future: new Date(0) })).toBeUndefined()
    expect(checkSleepState(new Date(0))).toBeUndefined()
    expect(checkSleepState({ sessions: [undefined] })).toBeUndefined()
    expect(checkSleepState([])).toBeUndefined()
  })

  it('repairs nonsense counts as the schema does: null scores and counts, debt from the scores', () => {
    const value = {
      debt: -5,
      sessions_since_last_sleep: 2.5,
      sessions: [
        { session_id: 'a', score: 2, change_count: -1, tool_count: 1e308 },
        { session_id: 'b', score: 2.5, change_count: 'NaN', tool_count: 3 },
        { session_id: 'c', score: 3 },
      ],
      triggers: [
        { id: 't', when: 'w', remind: 'r', created_at: 'x', fired_count: -2, max_fires: 1.5 },
      ],
    }
    const checked = checkSleepState(structuredClone(value))
    expect(checked).toEqual(SleepStateSchema.parse(structuredClone(value)))
    expect(checked).toMatchObject({
      debt: 5,
      sessions_since_last_sleep: 3,
      sessions: [
        { score: 2, change_count: null, tool_count: null },
        { score: null, change_count: null, tool_count: 3 },
        { score: 3 },
      ],
      triggers: [{ fired_count: 0, max_fires: 3 }],
    })
  })

  it('repairs an absurd debt and rhythm (whole, safe, but no total of real sessions)', () => {
    for (const absurd of [9e15, Number.MAX_SAFE_INTEGER, 1e308]) {
      const value = {
        debt: absurd,
        sessions_since_last_sleep: absurd,
        sessions: [{ session_id: 'a', score: 3 }],
      }
      const checked = checkSleepState(structuredClone(value))
      expect(checked).toEqual(SleepStateSchema.parse(structuredClone(value)))
      expect(checked).toMatchObject({ debt: 3, sessions_since_last_sleep: 1 })
    }
  })

  it('copies what it completes or does not know; shares records already complete', () => {
    const complete = sampleSession('whole', 2)
    const input = {
      future: { nested: [1] },
      sessions: [complete, { session_id: 'a', task_slugs: ['t'] }],
    }
    const checked = checkSleepState(input) as unknown as typeof input
    expect(checked.future).not.toBe(input.future)
    expect(checked.sessions[1]?.task_slugs).not.toBe(input.sessions[1]?.task_slugs)
    expect(checked.sessions[1]).toMatchObject({ transcript_path: null, score: null })
    expect(checked.sessions[0]).toBe(complete)
  })
})

describe('checkSleepState with a trusted state', () => {
  /** A change as the use cases make one: mostly the parts of `base`, some new or replaced. */
  const changeOf = (base: SleepState) =>
    fc
      .record({
        newSession: fc.option(session, { freq: 2 }),
        replaceTrigger: fc.option(trigger, { freq: 2 }),
        debt: fc.option(fc.oneof(fc.integer(), anyJson), { freq: 2 }),
        access: fc.option(record({ last_accessed: text, count: fc.nat() }), { freq: 3 }),
      })
      .map(({ newSession, replaceTrigger, debt, access }) => {
        const next: Record<string, unknown> = { ...base }
        if (newSession !== null) next.sessions = [newSession, ...base.sessions]
        if (replaceTrigger !== null && base.triggers.length > 0) {
          next.triggers = base.triggers.map((item, index) => (index === 0 ? replaceTrigger : item))
        }
        if (debt !== null) next.debt = debt
        if (access !== null) next.knowledge_access = { ...base.knowledge_access, fresh: access }
        return next
      })

  it('gives what the schema gives for the changed state, checking only the new parts', () => {
    const valid = ledger
      .map((value) => checkSleepState(value))
      .filter((base): base is SleepState => base !== undefined)
    fc.assert(
      fc.property(
        valid.chain((base) => fc.tuple(fc.constant(base), changeOf(base))),
        ([base, next]) => {
          const checked = checkSleepState(next, base)
          const parsed = SleepStateSchema.safeParse(next)
          if (checked === undefined) {
            if (parsed.success) expect(JSON.stringify(next)).toContain('__proto__')
            return
          }
          expect(parsed.success).toBe(true)
          expect(textOf(checked)).toBe(textOf(parsed.data))
        },
      ),
      { numRuns: 1_000 },
    )
  })
})

describe('checkHistoryEntry', () => {
  it('agrees with SleepHistoryEntrySchema whenever it answers', () => {
    fc.assert(
      fc.property(historyEntry, (value) => {
        const checked = checkHistoryEntry(value)
        const parsed = SleepHistoryEntrySchema.safeParse(value)
        if (checked === undefined) {
          if (parsed.success) expect(JSON.stringify(value)).toContain('__proto__')
          return
        }
        expect(parsed.success).toBe(true)
        expect(textOf(checked)).toBe(textOf(parsed.data))
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('freshState', () => {
  it('is freshSleepState, without the schemas', () => {
    expect(textOf(freshState())).toBe(textOf(freshSleepState()))
    expect(freshState().sessions).not.toBe(freshState().sessions)
  })
})
