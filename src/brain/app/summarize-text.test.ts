import { describe, expect, it } from 'vitest'
import { countTokens } from '../../engine/core/tokens.ts'
import type { LanguageModel } from '../../engine/ports/language-model.ts'
import { resolveBudget, summarizeText, textToUnits } from './summarize-text.ts'

describe('textToUnits', () => {
  it('makes one unit per wrapped prose paragraph, at its first line', () => {
    const units = textToUnits('First line of a paragraph\nthat wraps here.\n\nSecond paragraph.\n')
    expect(units).toEqual([
      { id: 'L1', line: 1, text: 'First line of a paragraph that wraps here.' },
      { id: 'L4', line: 4, text: 'Second paragraph.' },
    ])
  })

  it('makes one unit per list item or speaker line, keeping the speaker', () => {
    const units = textToUnits(
      '# Notes\n- uses pnpm\n- Node 20\n\nCaroline: I moved to Boston.\nMel: Nice!',
    )
    expect(units.map((unit) => [unit.id, unit.speaker, unit.text])).toEqual([
      ['L1', undefined, '# Notes'],
      ['L2', undefined, '- uses pnpm'],
      ['L3', undefined, '- Node 20'],
      ['L5', 'Caroline', 'I moved to Boston.'],
      ['L6', 'Mel', 'Nice!'],
    ])
  })

  it('reads the speaker of a line of ten million characters (once a stack overflow)', () => {
    const said = 'The deploy passed after the cache fix — at last. '.repeat(210_000)
    const [unit] = textToUnits(`assistant: ${said}`)
    expect(unit?.speaker).toBe('assistant')
    expect(unit?.text).toBe(said.trim())
  })
})

describe('resolveBudget', () => {
  it('takes the budget, or the ratio of the input tokens rounded down', () => {
    expect(resolveBudget(1000, 120, undefined)).toBe(120)
    expect(resolveBudget(1001, undefined, 0.2)).toBe(200)
    expect(resolveBudget(10, undefined, 1)).toBe(10)
  })

  it('wants exactly one of them, each in range', () => {
    for (const [budget, ratio] of [
      [undefined, undefined],
      [10, 0.5],
      [-1, undefined],
      [1.5, undefined],
      [undefined, 0],
      [undefined, 1.2],
    ]) {
      expect(() => resolveBudget(100, budget, ratio), `${budget} ${ratio}`).toThrow(
        expect.objectContaining({ code: 'USAGE' }),
      )
    }
  })
})

describe('summarizeText', () => {
  /** A stand-in model that keeps the first unit, to test the use case without the extractive scorer. */
  const firstUnitModel = {
    name: 'first',
    summarize: async ({ units }) => ({
      value: { text: units[0]?.text ?? '', sources: units[0] ? [units[0].id, 'unknown'] : [] },
      model: 'first',
      usage: { input_tokens: 12, output_tokens: 5 },
    }),
  } as LanguageModel

  it('reports the model, budget, tokens and the kept source lines (unknown ids dropped)', async () => {
    const text = 'Ann: We ship on Friday.\nBob: ok'
    const result = await summarizeText({ text, ratio: 0.5, model: firstUnitModel })
    expect(result).toEqual({
      summary: 'We ship on Friday.',
      model: 'first',
      tokens_before: countTokens(text),
      tokens_after: countTokens('We ship on Friday.'),
      budget: Math.floor(countTokens(text) / 2),
      sources: [{ id: 'L1', line: 1, text: 'Ann: We ship on Friday.' }],
      usage: { input_tokens: 12, output_tokens: 5 },
    })
  })

  it('refuses empty input with a clear message', async () => {
    await expect(
      summarizeText({ text: ' \n\n', budget: 10, model: firstUnitModel }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('empty'),
    })
  })
})
