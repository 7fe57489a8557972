/**
 * The behaviour every `LanguageModel` adapter must show; each adapter's test runs this suite against
 * a real backend (a loopback server, a real subprocess) or none (the extractive model).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SessionDigest } from '../core/digest/session-digest.ts'
import { isSomnusError, type SomnusError, type SomnusErrorCode } from '../core/errors.ts'
import { countTokens } from '../core/tokens.ts'
import { type ContractOptions, describeContract } from './describe-contract.contract.ts'
import {
  GroupSchema,
  type LanguageModel,
  ObservationSchema,
  PatternSchema,
  ReflectionSchema,
  SummarySchema,
  type Unit,
  UsageSchema,
} from './language-model.ts'

/** A backend that takes a call and never answers unless the call is cancelled. */
export interface StalledBackend {
  model: LanguageModel
  /** Settles once the backend has the call (request received, process started). */
  started(): Promise<void>
  /** Settles once the backend saw the call cancelled (connection dropped, process gone). */
  cancelled(): Promise<void>
}

/** One adapter wired to its backends, as the contract drives it. */
export interface LanguageModelSubject {
  /** The model over a backend that answers like a cooperative LLM. */
  model: LanguageModel
  /** Requests that reached the cooperative backend so far; absent when there is no backend. */
  backendCalls?: () => number
  /** A fresh stalled backend per call; absent for in-process models that cannot stall. */
  stalled?: () => Promise<StalledBackend>
  /** The model over a backend that fails, and the code the failure must carry. */
  failing?: { model: LanguageModel; code: SomnusErrorCode }
  /** Stops servers and removes files. */
  close(): Promise<void>
}

/** Units with ids, speakers and one repeated idea, so every skill has something to find. */
export const CONTRACT_UNITS: Unit[] = [
  {
    id: 's1:u1',
    text: 'We must ship the billing fix before Friday 2026-03-06; the customer is waiting.',
    speaker: 'user',
    timestamp: '2026-03-02T09:32:00Z',
  },
  {
    id: 's1:a1',
    text: 'The build failed because NODE_OPTIONS lacked --max-old-space-size=4096; setting it fixed the build.',
    speaker: 'assistant',
    timestamp: '2026-03-02T09:40:00Z',
  },
  { id: 's1:u2', text: 'Always use pnpm in this repository, never npm.', speaker: 'user' },
  { id: 's1:u3', text: 'Use pnpm, never npm, in this repository.', speaker: 'user' },
  { id: 's1:a2', text: 'Decided to keep the retry limit at 3 after the flaky test.' },
]

/** A session digest as the extractive builder drafts it: every item cites transcript records. */
export const CONTRACT_DRAFT: SessionDigest = {
  sessionId: '11111111-2222-3333-4444-555555555555',
  date: '2026-03-02',
  startedAt: '2026-03-02T09:00:00Z',
  endedAt: '2026-03-02T11:00:00Z',
  project: '/work/billing',
  branch: 'fix-billing',
  files: ['11111111-2222-3333-4444-555555555555.jsonl'],
  summary: { text: 'Fixed the billing rounding bug and shipped it.', sources: ['aa000001'] },
  changes: [
    {
      area: 'src/billing/',
      items: [{ text: '`round.ts`: banker rounding.', sources: ['aa000002', 'aa000003'] }],
    },
  ],
  commits: [{ text: 'fix: round invoices half-even', sources: ['aa000004'] }],
  decisions: [{ text: 'Round half-even, as the tax office does.', sources: ['aa000005'] }],
  gotchas: [
    { text: '`RangeError: precision` → pass 2 digits, not 20.', sources: ['aa000006', 'aa000007'] },
  ],
  done: [{ text: 'All 41 billing tests pass.', sources: ['aa000008'] }],
  open: [{ text: 'The CSV export still rounds half-up.', sources: ['aa000009'] }],
  preferences: [{ text: 'Use pnpm, never npm.', sources: ['aa000010'] }],
}

type Method = 'summarize' | 'extractObservations' | 'extractPatterns' | 'groupSimilar' | 'reflect'

/** Each method called with `units`, so a test can run over all five. */
const METHODS: Record<
  Method,
  (model: LanguageModel, units: Unit[], signal?: AbortSignal) => Promise<unknown>
> = {
  summarize: (model, units, signal) => model.summarize({ units, budgetTokens: 60, signal }),
  extractObservations: (model, units, signal) => model.extractObservations({ units, signal }),
  extractPatterns: (model, units, signal) => model.extractPatterns({ units, signal }),
  groupSimilar: (model, units, signal) => model.groupSimilar({ units, signal }),
  reflect: (model, units, signal) => model.reflect({ units, signal }),
}
const METHOD_NAMES = Object.keys(METHODS) as Method[]

/** A generous bound on "the backend let go": a clear failure instead of the test's timeout. */
const CANCEL_WAIT_MS = 10_000

/** `promise`, or a failure with `message` if it has not settled after `milliseconds`. */
async function settlesWithin(promise: Promise<void>, milliseconds: number, message: string) {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), milliseconds)
  })
  try {
    await Promise.race([promise, limit])
  } finally {
    clearTimeout(timer)
  }
}

/** The error a promise rejects with (a test failure if it resolves or throws a non-Somnus error). */
async function rejection(promise: Promise<unknown>): Promise<SomnusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(isSomnusError(error), `expected a SomnusError, got ${String(error)}`).toBe(true)
  return error as SomnusError
}

/** Which optional parts of the contract apply; each must match what `setup` provides. */
export interface LanguageModelFeatures {
  /** The subject has `stalled`: a backend that can be caught mid-call. */
  stalls: boolean
  /** The subject has `failing`: a backend that can fail. */
  fails: boolean
}

/** Registers the contract tests for the adapter `setup` wires (once for the whole suite). */
export function testLanguageModel(
  options: ContractOptions<LanguageModelSubject> & { features: LanguageModelFeatures },
): void {
  const { features } = options
  describeContract('LanguageModel', options, () => {
    let subject: LanguageModelSubject
    beforeAll(async () => {
      subject = await options.make()
    })
    afterAll(async () => {
      await subject?.close()
    })
    const ids = new Set(CONTRACT_UNITS.map((unit) => unit.id))
    const backendCalls = () => subject.backendCalls?.() ?? 0

    it('answers every method in its schema shape, stamped with its name and usage', async () => {
      const { model } = subject
      const summary = await model.summarize({ units: CONTRACT_UNITS, budgetTokens: 80 })
      expect(SummarySchema.parse(summary.value).text).not.toBe('')
      const observations = await model.extractObservations({ units: CONTRACT_UNITS })
      expect(ObservationSchema.array().parse(observations.value).length).toBeGreaterThan(0)
      const patterns = await model.extractPatterns({ units: CONTRACT_UNITS })
      PatternSchema.array().parse(patterns.value)
      const groups = await model.groupSimilar({ units: CONTRACT_UNITS })
      GroupSchema.array().parse(groups.value)
      const reflection = await model.reflect({ units: CONTRACT_UNITS })
      ReflectionSchema.parse(reflection.value)
      for (const call of [summary, observations, patterns, groups, reflection]) {
        expect(call.model).toBe(model.name)
        UsageSchema.parse(call.usage)
      }
    })

    it('cites only the ids of its input units; groups are disjoint and never singletons', async () => {
      const { model } = subject
      const summary = await model.summarize({ units: CONTRACT_UNITS, budgetTokens: 80 })
      const observations = await model.extractObservations({ units: CONTRACT_UNITS })
      const patterns = await model.extractPatterns({ units: CONTRACT_UNITS })
      const groups = await model.groupSimilar({ units: CONTRACT_UNITS })
      const reflection = await model.reflect({ units: CONTRACT_UNITS })
      const cited = [
        ...summary.value.sources,
        ...observations.value.flatMap((item) => item.sources),
        ...patterns.value.flatMap((item) => item.sources),
        ...reflection.value.sources,
      ]
      const members = groups.value.flatMap((group) => group.members)
      expect([...cited, ...members].filter((id) => !ids.has(id))).toEqual([])
      expect(new Set(members).size).toBe(members.length)
      for (const group of groups.value) expect(group.members.length).toBeGreaterThanOrEqual(2)
    })

    it('digests a session in the draft structure, citing only records the draft cites', async () => {
      const draft = CONTRACT_DRAFT
      const call = await subject.model.digestSession({ draft })
      expect(call.model).toBe(subject.model.name)
      UsageSchema.parse(call.usage)
      const digest = call.value
      const { sessionId, date, startedAt, endedAt, project, branch, files } = draft
      expect(digest).toMatchObject({ sessionId, date, startedAt, endedAt, project, branch, files })
      const items = [
        ...(digest.summary ? [digest.summary] : []),
        ...digest.changes.flatMap((area) => area.items),
        ...digest.commits,
        ...digest.decisions,
        ...digest.gotchas,
        ...digest.done,
        ...digest.open,
        ...digest.preferences,
      ]
      expect(items.length).toBeGreaterThan(0)
      const drafted = new Set(JSON.stringify(draft).match(/aa\d{6}/g))
      for (const item of items) {
        expect(item.text).not.toBe('')
        expect(item.sources.length).toBeGreaterThan(0)
        for (const id of item.sources) expect(drafted.has(id), id).toBe(true)
      }
    })

    it('never exceeds the token budget of a summary', async () => {
      for (const budgetTokens of [0, 5, 25]) {
        const summary = await subject.model.summarize({ units: CONTRACT_UNITS, budgetTokens })
        expect(countTokens(summary.value.text)).toBeLessThanOrEqual(budgetTokens)
      }
    })

    it('answers empty input with empty results, without asking its backend', async () => {
      const { model } = subject
      const before = backendCalls()
      expect((await model.summarize({ units: [], budgetTokens: 50 })).value.text).toBe('')
      expect((await model.extractObservations({ units: [] })).value).toEqual([])
      expect((await model.extractPatterns({ units: [] })).value).toEqual([])
      expect((await model.groupSimilar({ units: [] })).value).toEqual([])
      expect((await model.reflect({ units: [] })).value.sources).toEqual([])
      expect(backendCalls()).toBe(before)
    })

    it('rejects a bad request with INVALID_INPUT or USAGE, without asking its backend', async () => {
      const { model } = subject
      const before = backendCalls()
      const badUnits = [{ id: '', text: 'no id' }]
      for (const method of METHOD_NAMES) {
        const error = await rejection(METHODS[method](model, badUnits))
        expect(error.code, method).toBe('INVALID_INPUT')
      }
      const budget = await rejection(model.summarize({ units: CONTRACT_UNITS, budgetTokens: -1 }))
      expect(budget.code).toBe('USAGE')
      expect(backendCalls()).toBe(before)
    })

    it('rejects every method with ABORTED when its signal already fired, asking nothing', async () => {
      const before = backendCalls()
      const signal = AbortSignal.abort()
      const digest = await rejection(subject.model.digestSession({ draft: CONTRACT_DRAFT, signal }))
      expect(digest.code).toBe('ABORTED')
      for (const method of METHOD_NAMES) {
        const error = await rejection(METHODS[method](subject.model, CONTRACT_UNITS, signal))
        expect(error.code, method).toBe('ABORTED')
        expect(error.message).toContain('AbortSignal')
      }
      expect(backendCalls()).toBe(before)
    })

    it.skipIf(!features.stalls).each(METHOD_NAMES)(
      'rejects %s with ABORTED as soon as its signal fires mid-call, and stops the backend',
      async (method) => {
        const stall = subject.stalled
        if (stall === undefined)
          throw new Error(`${options.name} declares stalls but has no stalled()`)
        const backend = await stall()
        const controller = new AbortController()
        const outcome = rejection(METHODS[method](backend.model, CONTRACT_UNITS, controller.signal))
        await backend.started()
        controller.abort()
        // Without the abort this call would never settle: reaching the next line is the proof.
        expect((await outcome).code).toBe('ABORTED')
        await settlesWithin(
          backend.cancelled(),
          CANCEL_WAIT_MS,
          `${method}: the backend never saw the call cancelled (request still open, or process alive)`,
        )
      },
    )

    it.skipIf(!features.fails)(
      'rejects with its SomnusError code when the backend fails',
      async () => {
        const failing = subject.failing
        if (failing === undefined)
          throw new Error(`${options.name} declares fails but has no failing`)
        const { model, code } = failing
        for (const method of METHOD_NAMES) {
          const error = await rejection(METHODS[method](model, CONTRACT_UNITS))
          expect(error.code, method).toBe(code)
        }
      },
    )
  })
}
