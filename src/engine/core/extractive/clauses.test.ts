/**
 * Terse references (the service's quick ref): sentences cut to clauses, asides dropped, at most
 * one clause per unit, and what the speaker did or will do ahead of exhortations and small talk.
 */
import { describe, expect, it } from 'vitest'
import { countTokens } from '../tokens.ts'
import { splitClauses } from './clauses.ts'
import { summarizeUnits } from './summarize.ts'

describe('splitClauses', () => {
  it('cuts at semicolons, spaced dashes and a conjunction that starts a new statement', () => {
    expect(splitClauses('I moved to Lisbon in March; the rent is lower there.')).toEqual([
      'I moved to Lisbon in March.',
      'The rent is lower there.',
    ])
    expect(splitClauses('We adopted a cat last week – she sleeps all day.')).toEqual([
      'We adopted a cat last week.',
      'She sleeps all day.',
    ])
    expect(
      splitClauses('I finished the marathon in June and it was the hardest thing I did.'),
    ).toEqual(['I finished the marathon in June.', 'It was the hardest thing I did.'])
  })

  it('keeps a dependent or short clause with the one before it, and drops asides', () => {
    expect(splitClauses('Rest matters - even if it is hard to find the time.')).toEqual([
      'Rest matters, even if it is hard to find the time.',
    ])
    expect(
      splitClauses('I bought a kayak (a red one) [image: a kayak on a lake] yesterday.'),
    ).toEqual(['I bought a kayak yesterday.'])
    expect(splitClauses('Bread and butter.')).toEqual(['Bread and butter.'])
  })
})

describe('terse summaries', () => {
  const units = [
    { id: 'a1', speaker: 'Noor', text: 'Hi Tomas! How was your week?' },
    {
      id: 'b1',
      speaker: 'Tomas',
      text: 'Busy but good. Last Sunday I ran the city half marathon for the children’s hospital, and we raised 2,400 euros!',
    },
    {
      id: 'a2',
      speaker: 'Noor',
      text: "That's amazing, Tomas! Let's keep spreading the good vibes, always.",
    },
    {
      id: 'b2',
      speaker: 'Tomas',
      text: 'Thanks! Next month I am going to start volunteering at the shelter on Fridays. It feels right.',
    },
    { id: 'a3', speaker: 'Noor', text: 'Love that. Positivity is everything, keep shining!' },
    {
      id: 'b3',
      speaker: 'Tomas',
      text: 'My sister Ines also moved to Porto in October, so I will visit her at Christmas.',
    },
  ]

  it('keeps the events and plans within the budget, one clause per unit', () => {
    const budget = 45
    const terse = summarizeUnits(units, budget, true)
    expect(countTokens(terse.text)).toBeLessThanOrEqual(budget)
    // Tomas's race (or what it raised), his plan and his sister's move; none of Noor's cheering.
    expect(terse.sources).toEqual(['b1', 'b2', 'b3'])
    expect(terse.text).toMatch(/half marathon|2,400 euros/)
    expect(terse.text).toContain('volunteering at the shelter')
    for (const line of terse.text.split('\n').filter((text) => text.includes(':'))) {
      // One clause per unit: a line holds one sentence.
      expect(line.replace(/^[^:]+:\s*/, '').match(/[.!?](\s|$)/g)?.length ?? 1, line).toBe(1)
    }
  })

  it('cites more units than the sentence summary at the same budget', () => {
    const budget = 45
    const sentences = summarizeUnits(units, budget)
    const terse = summarizeUnits(units, budget, true)
    expect(terse.sources.length).toBeGreaterThan(sentences.sources.length)
  })

  it('prefers a clause that states a fact to one that states none', () => {
    const pair = [
      { id: 'd1', speaker: 'Noor', text: 'Your generous heartfelt kind words mean everything.' },
      { id: 'd2', speaker: 'Tomas', text: 'The drive took three hours.' },
    ]
    const budget = 14
    const terse = summarizeUnits(pair, budget, true)
    expect(terse.sources).toEqual(['d2'])
  })
})
