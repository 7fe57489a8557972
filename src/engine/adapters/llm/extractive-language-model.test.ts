import { describe, expect, it } from 'vitest'
import { countTokens } from '../../core/tokens.ts'
import {
  GroupSchema,
  ObservationSchema,
  PatternSchema,
  ReflectionSchema,
  SummarySchema,
  type Unit,
} from '../../ports/language-model.ts'
import { createExtractiveLanguageModel } from './extractive-language-model.ts'

const UNITS: Unit[] = [
  {
    id: 'u1',
    speaker: 'user',
    text: 'Hi! The nightly build failed again with ENOENT on dist/.',
    timestamp: '2026-03-02T08:10:00Z',
  },
  {
    id: 'a1',
    speaker: 'assistant',
    text: 'Fixed by creating dist/ before the copy step; the root cause was a clean script.',
    timestamp: '2026-03-02T08:20:00Z',
  },
  {
    id: 'u2',
    speaker: 'user',
    text: 'Great. I prefer pnpm over npm, and the release is due by Friday.',
    timestamp: '2026-03-02T08:25:00Z',
  },
  {
    id: 'a2',
    speaker: 'assistant',
    text: 'We decided to use pnpm workspaces for the monorepo.',
    timestamp: '2026-03-02T08:30:00Z',
  },
  {
    id: 'a3',
    speaker: 'assistant',
    text: 'We decided to use pnpm workspaces for this monorepo!',
    timestamp: '2026-03-02T08:31:00Z',
  },
]

describe('createExtractiveLanguageModel', () => {
  const model = createExtractiveLanguageModel()

  it('is named extractive, stamps its name and uses no tokens', async () => {
    const call = await model.summarize({ units: UNITS, budgetTokens: 40 })
    expect(model.name).toBe('extractive')
    expect(call.model).toBe('extractive')
    expect(call.usage).toEqual({ input_tokens: 0, output_tokens: 0 })
    expect(countTokens(call.value.text)).toBeLessThanOrEqual(40)
  })

  it('returns values that pass the port schemas', async () => {
    expect(
      SummarySchema.safeParse((await model.summarize({ units: UNITS, budgetTokens: 50 })).value)
        .success,
    ).toBe(true)
    const observations = (await model.extractObservations({ units: UNITS })).value
    expect(observations.length).toBeGreaterThan(0)
    expect(ObservationSchema.array().safeParse(observations).success).toBe(true)
    const patterns = (await model.extractPatterns({ units: UNITS })).value
    expect(patterns.length).toBeGreaterThan(0)
    expect(PatternSchema.array().safeParse(patterns).success).toBe(true)
    const groups = (await model.groupSimilar({ units: UNITS })).value
    expect(groups).toEqual([{ label: expect.any(String), members: ['a2', 'a3'] }])
    expect(GroupSchema.array().safeParse(groups).success).toBe(true)
    expect(ReflectionSchema.safeParse((await model.reflect({ units: UNITS })).value).success).toBe(
      true,
    )
  })

  it('gives the same answers on a second call', async () => {
    const first = await model.extractObservations({ units: UNITS })
    const second = await createExtractiveLanguageModel().extractObservations({
      units: structuredClone(UNITS),
    })
    expect(second).toEqual(first)
  })

  it('rejects bad input with errors that say what to fix', async () => {
    await expect(model.summarize({ units: UNITS, budgetTokens: -1 })).rejects.toMatchObject({
      code: 'USAGE',
    })
    await expect(model.groupSimilar({ units: UNITS, threshold: 2 })).rejects.toMatchObject({
      code: 'USAGE',
    })
    await expect(model.reflect({ units: [{ id: '', text: 'x' }] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('id'),
    })
  })
})
