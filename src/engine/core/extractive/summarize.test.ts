import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countTokens } from '../tokens.ts'
import type { TextUnit } from './sentences.ts'
import { renderUnits, summarizeUnits } from './summarize.ts'

/** A chatty catch-up: three fact-bearing turns (about a fifth of the tokens) among greetings, thanks and laughter. */
const CHAT: [string, string][] = [
  ['Caroline', 'Hey Mel! Good to see you! How have you been?'],
  ['Melanie', 'Hey Caroline! Good to see you too! How are you?'],
  ['Caroline', "I'm good, thanks! Haha, it's been a while."],
  ['Melanie', 'Wow, yeah, it really has! So nice to chat again.'],
  ['Caroline', 'Totally! Thanks so much for reaching out.'],
  ['Melanie', 'Of course! Haha. Anything new with you?'],
  ['Caroline', 'Oh, lots! We decided to adopt a beagle named Biscuit from the Oakwood shelter.'],
  ['Melanie', "Aww, that's amazing! Congrats!"],
  ['Caroline', "Thanks! Haha, I'm so excited."],
  ['Melanie', 'Wow, so cool. Love that for you!'],
  [
    'Melanie',
    'My pottery class at Riverside Studio starts at 6:30 pm every Thursday and costs $45.',
  ],
  ['Caroline', 'Oh nice, that sounds so fun!'],
  ['Melanie', 'Haha yeah, it really is! Thanks!'],
  ['Caroline', 'Awesome! So glad you found something you love.'],
  ['Melanie', 'Thanks, me too! Haha.'],
  ['Caroline', 'Actually, the pickup moved: we get Biscuit on Sunday, 13 August, not Saturday.'],
  ['Melanie', 'Haha, no worries! Good to know.'],
  ['Caroline', 'Haha, I know, right? Thanks for listening to all my news!'],
  ['Melanie', 'Of course, anytime! It was so great catching up with you.'],
  ['Caroline', "Same here! Wow, I can't believe how fast time flies. Haha."],
  ['Melanie', 'Totally! We should do this more often.'],
  ['Caroline', 'Haha, for sure! You always make me laugh so much.'],
  ['Melanie', 'Aww, stop it! You are the sweetest, honestly.'],
  ['Caroline', 'Yes, definitely! Thanks again, Mel.'],
  ['Melanie', 'Aww, thank you! Hugs to everyone!'],
  ['Caroline', 'Awesome, thanks so much! Talk soon!'],
  ['Melanie', 'Bye! Take care!'],
  ['Caroline', 'Bye, Mel! See you!'],
]
const chatUnits: TextUnit[] = CHAT.map(([speaker, text], index) => ({
  id: `D1:${index + 1}`,
  speaker,
  text,
  timestamp: '1:56 pm on 8 May, 2023',
}))

describe('summarizeUnits on a chatty dialogue', () => {
  const full = countTokens(renderUnits(chatUnits))
  const summary = summarizeUnits(chatUnits, Math.floor(full * 0.2))

  it('keeps the names, dates, numbers, the decision and the correction at 20 % of the tokens', () => {
    for (const fact of [
      'Biscuit',
      'Oakwood',
      'decided',
      'Riverside Studio',
      '6:30',
      '$45',
      'Actually',
      '13 August',
    ]) {
      expect(summary.text).toContain(fact)
    }
    expect(summary.sources).toEqual(['D1:7', 'D1:11', 'D1:16'])
  })

  it('drops the greetings, thanks and laughter', () => {
    expect(summary.text).not.toMatch(/\b(Hey|Bye|Haha|Thanks|Talk soon|Good to see)\b/i)
  })

  it('prefixes speakers, heads with the date and keeps the original order', () => {
    const lines = summary.text.split('\n')
    expect(lines[0]).toBe('[8 May 2023]')
    expect(lines.slice(1).map((line) => line.split(':')[0])).toEqual([
      'Caroline',
      'Melanie',
      'Caroline',
    ])
  })
})

describe('summarizeUnits budget', () => {
  it('returns everything, as rendered, when the budget covers the whole input', () => {
    const rendered = renderUnits(chatUnits)
    const summary = summarizeUnits(chatUnits, countTokens(rendered))
    expect(summary.text).toBe(rendered)
    expect(summary.sources).toEqual(chatUnits.map((unit) => unit.id))
  })

  it('returns empty text for a zero budget or no units', () => {
    expect(summarizeUnits(chatUnits, 0)).toEqual({ text: '', sources: [] })
    expect(summarizeUnits([], 100)).toEqual({ text: '', sources: [] })
  })

  it('never exceeds the budget, cites only input ids in input order, and is lossless when it fits', () => {
    const text = fc.oneof(
      fc.lorem({ maxCount: 6, mode: 'sentences' }),
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.constantFrom(
        'Hey! Thanks!',
        'We decided to use Postgres on 3 May.',
        'Haha',
        '',
        'A (b) c? D!\nE.',
      ),
    )
    const unit = fc.record(
      {
        text,
        speaker: fc.constantFrom('Ann', 'Bob Lee', 'user'),
        timestamp: fc.constantFrom('2026-02-12T09:32:00Z', '1:56 pm on 8 May, 2023', 'whenever'),
      },
      { requiredKeys: ['text'] },
    )
    const input = fc
      .array(unit, { maxLength: 12 })
      .map((units) => units.map((entry, index) => ({ id: `u${index}`, ...entry })))
    fc.assert(
      fc.property(input, fc.integer({ min: 0, max: 400 }), (units, budget) => {
        const summary = summarizeUnits(units, budget)
        expect(countTokens(summary.text)).toBeLessThanOrEqual(budget)
        const ids = units.map((entry) => entry.id)
        const positions = summary.sources.map((id) => ids.indexOf(id))
        expect(positions.every((position) => position >= 0)).toBe(true)
        expect(positions).toEqual([...positions].sort((left, right) => left - right))
        const nonEmpty = units.filter((entry) => entry.text.trim().length > 0)
        const rendered = renderUnits(nonEmpty)
        if (countTokens(rendered) <= budget && nonEmpty.length > 0)
          expect(summary.text).toBe(rendered)
      }),
      { numRuns: 300 },
    )
  })
})

describe('summarizeUnits stability', () => {
  it('gives the same output twice and for a structurally equal copy', () => {
    const first = summarizeUnits(chatUnits, 60)
    const again = summarizeUnits(chatUnits, 60)
    const copy = summarizeUnits(JSON.parse(JSON.stringify(chatUnits)) as TextUnit[], 60)
    expect(again).toEqual(first)
    expect(copy).toEqual(first)
  })

  it('keeps the RED commitment ahead of informational facts when only one fits', () => {
    const units: TextUnit[] = [
      { id: 'a', text: 'The office kitchen has 3 coffee machines and 2 fridges on floor 4.' },
      { id: 'b', text: 'Lunch today was pasta with Maria at the Luigi place on Main Street.' },
      { id: 'c', text: 'I promised the client that the billing migration ships by Friday.' },
      { id: 'd', text: 'The weather in Lisbon was 24 degrees and sunny this afternoon.' },
    ]
    const summary = summarizeUnits(units, 16)
    expect(summary.sources).toEqual(['c'])
    expect(summary.text).toContain('promised')
  })

  it('keeps one of two near-duplicate statements when there is room for both', () => {
    const units: TextUnit[] = [
      { id: 'a', text: 'The staging database runs PostgreSQL 16 on port 5433.' },
      { id: 'b', text: 'Our staging database runs PostgreSQL 16 on port 5433.' },
      { id: 'c', text: 'Deploys go out every Tuesday at 10:00 from the release branch.' },
      { id: 'd', text: 'Haha, nice!' },
    ]
    const summary = summarizeUnits(units, 38)
    expect(summary.sources).toContain('c')
    expect(summary.sources.filter((id) => id === 'a' || id === 'b')).toHaveLength(1)
  })
})
