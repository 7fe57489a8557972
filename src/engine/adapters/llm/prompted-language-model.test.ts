import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { taskOf, validReplyFor } from '../../../../test/support/prompted-replies.ts'
import { SomnusError } from '../../core/errors.ts'
import { countTokens } from '../../core/tokens.ts'
import type { ChatRequest, ChatResponse } from '../../ports/chat-transport.ts'
import type { Unit } from '../../ports/language-model.ts'
import { createPromptedLanguageModel } from './prompted-language-model.ts'
import { cutToBudget, extractJson } from './reply-text.ts'

const units: Unit[] = [
  {
    id: 'u1',
    text: 'The deploy key expires on 2026-03-01.',
    speaker: 'user',
    timestamp: '2026-02-01T09:32:00Z',
  },
  { id: 'u2', text: 'Use pnpm, never npm, in this repository.' },
  { id: 'u3', text: 'Always use pnpm here.' },
]

/** A transport that answers from a list (or a function) and records every request. */
function scriptedTransport(replies: Array<string | ((request: ChatRequest) => string)>) {
  const requests: ChatRequest[] = []
  const generate = async (request: ChatRequest): Promise<ChatResponse> => {
    const reply = replies[Math.min(requests.length, replies.length - 1)]
    requests.push(request)
    const text = typeof reply === 'function' ? reply(request) : (reply ?? '')
    return { text, usage: { input_tokens: 100, output_tokens: 10 } }
  }
  return { transport: { generate }, requests }
}

const cooperative = (request: ChatRequest) => validReplyFor(request.system, request.prompt)

async function rejection(promise: Promise<unknown>): Promise<SomnusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(SomnusError)
  return error as SomnusError
}

describe('createPromptedLanguageModel', () => {
  it('answers every port method from schema-valid replies that cite the input ids', async () => {
    const { transport, requests } = scriptedTransport([cooperative])
    const model = createPromptedLanguageModel({ name: 'fake:model', transport })

    const summary = await model.summarize({ units, budgetTokens: 200 })
    expect(summary.value.sources).toEqual(['u1', 'u2', 'u3'])
    expect(summary.model).toBe('fake:model')
    expect(summary.usage).toEqual({ input_tokens: 100, output_tokens: 10 })

    const observations = await model.extractObservations({ units })
    expect(observations.value[0]).toMatchObject({ priority: 'RED', time: '09:32', sources: ['u1'] })
    const patterns = await model.extractPatterns({ units })
    expect(patterns.value[0]?.domain).toBe('testing')
    const groups = await model.groupSimilar({ units, threshold: 0.5 })
    expect(groups.value).toEqual([{ label: 'the same idea', members: ['u1', 'u2'] }])
    const reflection = await model.reflect({ units })
    expect(reflection.value.priority).toMatch(/flaky/)

    expect(requests.map((request) => taskOf(request.system))).toEqual([
      'summarize',
      'observations',
      'patterns',
      'groups',
      'reflect',
    ])
    // Units travel with their ids, one JSON object per line.
    expect(requests[0]?.prompt).toContain(
      '{"id":"u1","speaker":"user","timestamp":"2026-02-01T09:32:00Z"',
    )
    expect(requests[3]?.system).toContain('Similarity threshold: 0.5')
  })

  it('reads JSON wrapped in code fences and prose, and a bare array for list tasks', async () => {
    const fenced = 'Here you go:\n```json\n{"reflection":"ok","priority":"p","sources":["u2"]}\n```'
    const bare = '[{"priority":"YLW","text":"pnpm only","sources":["u2","u3"]}]'
    const { transport } = scriptedTransport([fenced, bare])
    const model = createPromptedLanguageModel({ name: 'fake', transport })
    expect((await model.reflect({ units })).value.sources).toEqual(['u2'])
    expect((await model.extractObservations({ units })).value).toEqual([
      { priority: 'YLW', text: 'pnpm only', sources: ['u2', 'u3'] },
    ])
  })

  it('retries a malformed reply once with the problem appended, and sums usage', async () => {
    const { transport, requests } = scriptedTransport(['not json at all', cooperative])
    const model = createPromptedLanguageModel({ name: 'fake', transport })
    const result = await model.reflect({ units })
    expect(requests).toHaveLength(2)
    expect(requests[1]?.prompt).toContain(
      'Your previous reply was rejected: the reply holds no parseable JSON',
    )
    expect(result.usage).toEqual({ input_tokens: 200, output_tokens: 20 })
  })

  it('gives MODEL_OUTPUT_INVALID after a second bad reply', async () => {
    const { transport, requests } = scriptedTransport([
      '{"observations": [{"priority": "PURPLE"}]}',
    ])
    const model = createPromptedLanguageModel({ name: 'fake', transport })
    const error = await rejection(model.extractObservations({ units }))
    expect(error.code).toBe('MODEL_OUTPUT_INVALID')
    expect(error.message).toMatch(/extract observations.*invalid twice.*does not match the shape/)
    expect(requests).toHaveLength(2)
    expect(requests[1]?.prompt).toContain('does not match the shape')
  })

  it('rejects a reply that cites an id not in the input', async () => {
    const unknown = '{"reflection":"r","priority":"p","sources":["u9"]}'
    const { transport, requests } = scriptedTransport([unknown, cooperative])
    const model = createPromptedLanguageModel({ name: 'fake', transport })
    await model.reflect({ units })
    expect(requests[1]?.prompt).toContain('cites unit ids that are not in the input: u9')

    const always = scriptedTransport(['{"groups":[{"label":"x","members":["u1","nope"]}]}'])
    const strict = createPromptedLanguageModel({ name: 'fake', transport: always.transport })
    const error = await rejection(strict.groupSimilar({ units }))
    expect(error.code).toBe('MODEL_OUTPUT_INVALID')
    expect(error.message).toContain('nope')
  })

  it('drops singleton and overlapping group members, and slugs pattern domains', async () => {
    const groups =
      '{"groups":[{"label":"a","members":["u2","u3","u2"]},{"label":"b","members":["u3","u1"]},{"label":"c","members":["u1"]}]}'
    const patterns = JSON.stringify({
      patterns: [
        {
          domain: '../Ruby on Rails!',
          title: 't',
          observation: 'o',
          details: 'd',
          context: 'c',
          tags: [],
          sources: ['u1'],
        },
      ],
    })
    const { transport } = scriptedTransport([groups, patterns])
    const model = createPromptedLanguageModel({ name: 'fake', transport })
    expect((await model.groupSimilar({ units })).value).toEqual([
      { label: 'a', members: ['u2', 'u3'] },
    ])
    expect((await model.extractPatterns({ units })).value[0]?.domain).toBe('ruby-on-rails')
  })

  it('makes no call for empty input', async () => {
    const { transport, requests } = scriptedTransport([cooperative])
    const model = createPromptedLanguageModel({ name: 'fake', transport })
    expect((await model.summarize({ units: [], budgetTokens: 50 })).value.text).toBe('')
    expect((await model.summarize({ units, budgetTokens: 0 })).value.text).toBe('')
    expect((await model.extractObservations({ units: [] })).value).toEqual([])
    expect((await model.groupSimilar({ units: units.slice(0, 1) })).value).toEqual([])
    expect(requests).toHaveLength(0)
  })

  describe('summarize budget', () => {
    const long = 'The key expires in March. Pnpm is the package manager. '.repeat(20).trim()

    it('asks once for a shorter summary when the first is over budget', async () => {
      const { transport, requests } = scriptedTransport([
        JSON.stringify({ text: long, sources: ['u1'] }),
        JSON.stringify({ text: 'The key expires in March.', sources: ['u1'] }),
      ])
      const model = createPromptedLanguageModel({ name: 'fake', transport })
      const result = await model.summarize({ units, budgetTokens: 20 })
      expect(result.value.text).toBe('The key expires in March.')
      expect(requests[1]?.prompt).toMatch(/used \d+ tokens; the limit is 20/)
      expect(result.usage.input_tokens).toBe(200)
    })

    it('cuts at the last whole sentence when the model overshoots twice', async () => {
      const { transport, requests } = scriptedTransport([
        JSON.stringify({ text: long, sources: ['u1'] }),
      ])
      const model = createPromptedLanguageModel({ name: 'fake', transport })
      const result = await model.summarize({ units, budgetTokens: 20 })
      expect(requests).toHaveLength(2)
      expect(countTokens(result.value.text)).toBeLessThanOrEqual(20)
      expect(result.value.text).toMatch(/\.$/)
      expect(long.startsWith(result.value.text)).toBe(true)
    })

    it('still cuts the first summary when the shorter attempt is malformed', async () => {
      const { transport, requests } = scriptedTransport([
        JSON.stringify({ text: long, sources: ['u1'] }),
        'garbage',
      ])
      const model = createPromptedLanguageModel({ name: 'fake', transport })
      const result = await model.summarize({ units, budgetTokens: 20 })
      expect(requests).toHaveLength(3)
      expect(countTokens(result.value.text)).toBeLessThanOrEqual(20)
      expect(result.usage.input_tokens).toBe(300)
    })
  })
})

describe('reply text', () => {
  it('extracts JSON from common model wrappings', () => {
    expect(extractJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } })
    expect(extractJson('```\n[1,2]\n```')).toEqual({ ok: true, value: [1, 2] })
    expect(extractJson('Sure! {"a":{"b":2}} Hope this helps.')).toEqual({
      ok: true,
      value: { a: { b: 2 } },
    })
    expect(extractJson('no json here').ok).toBe(false)
  })

  it('never exceeds the budget and always returns a prefix', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.integer({ min: 0, max: 60 }),
        (text, budget) => {
          const cut = cutToBudget(text, budget)
          expect(countTokens(cut)).toBeLessThanOrEqual(budget)
          expect(text.startsWith(cut)).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })
})
