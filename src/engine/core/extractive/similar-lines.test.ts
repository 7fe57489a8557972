import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  citedSources,
  contradiction,
  factsOf,
  indexOfSameMeaning,
  repeatsAny,
  restatesAny,
  sameFact,
} from './similar-lines.ts'

const same = (left: string, right: string) => sameFact(factsOf(left), factsOf(right))

/** Plain lowercase sentences of 3-12 words, no digits, no negation, no capitals. */
const WORD = fc.constantFrom(
  'use',
  'the',
  'cache',
  'for',
  'build',
  'server',
  'tests',
  'deploy',
  'keys',
  'rotate',
  'every',
  'days',
  'backend',
  'frontend',
  'logs',
  'write',
  'into',
  'folder',
  'release',
  'branch',
)
const sentence = fc.array(WORD, { minLength: 3, maxLength: 12 })

describe('sameFact', () => {
  it('calls a reworded line the same, and a line the same as itself', () => {
    expect(
      same('- The API runs on port 3456.', 'The API runs on port 3456 <!-- sources: s0 -->'),
    ).toBe(true)
    expect(same('We decided to keep the cache warm', 'we decided to keep the cache warm!')).toBe(
      true,
    )
  })

  it('tells apart lines that differ in a number, a negation or a name', () => {
    expect(same('Rotate the API keys every 30 days', 'Rotate the API keys every 90 days')).toBe(
      false,
    )
    expect(same('Use Node 20 for the backend', 'Use Node 18 for the backend')).toBe(false)
    expect(same('We use Jest for the unit tests', 'Do not use Jest for the unit tests')).toBe(false)
    expect(same('We use Jest for the unit tests', 'We use Vitest for the unit tests')).toBe(false)
    expect(
      same(
        'Edit src/brain/core/ledger.ts by hand',
        'Edit src/brain/core/session-ledger.ts by hand',
      ),
    ).toBe(false)
    expect(same('We use jest for the unit tests', 'We use Jest for the unit tests')).toBe(true)
  })

  it('never calls a line the same once one of its numbers changes', () => {
    fc.assert(
      fc.property(sentence, fc.nat(10_000), fc.nat(10_000), fc.nat(12), (words, from, to, at) => {
        fc.pre(from !== to)
        const place = at % (words.length + 1)
        const line = (value: number) =>
          [...words.slice(0, place), String(value), ...words.slice(place)].join(' ')
        expect(same(line(from), line(to))).toBe(false)
      }),
    )
  })

  it('never calls a line the same as its negation', () => {
    fc.assert(
      fc.property(sentence, fc.constantFrom('not', 'never', "don't", 'no'), (words, negation) => {
        const line = words.join(' ')
        expect(same(line, `${negation} ${line}`)).toBe(false)
      }),
    )
  })

  it('never calls a line the same once a name in it changes', () => {
    const name = fc.constantFrom(
      'Jest',
      'Vitest',
      'Postgres',
      'Redis',
      'GitHub',
      'fooBar',
      'a/b.ts',
    )
    fc.assert(
      fc.property(sentence, name, name, (words, from, to) => {
        fc.pre(from !== to)
        expect(same(`We ${words.join(' ')} ${from}`, `We ${words.join(' ')} ${to}`)).toBe(false)
      }),
    )
  })

  it('is symmetric and reflexive', () => {
    fc.assert(
      fc.property(sentence, sentence, (left, right) => {
        const a = left.join(' ')
        const b = right.join(' ')
        expect(same(a, a)).toBe(true)
        expect(same(a, b)).toBe(same(b, a))
      }),
    )
  })
})

describe('restatesAny', () => {
  it('matches only the same words, up to case and punctuation', () => {
    expect(
      restatesAny('Never commit .env files', ['- never commit .env files! <!-- sources: x -->']),
    ).toBe(true)
    expect(restatesAny('Never commit .env files', ['- Never commit .env files to git'])).toBe(false)
    expect(repeatsAny('Never commit .env files', ['- Never commit .env files to git'])).toBe(true)
  })
})

describe('contradiction', () => {
  const kind = (newer: string, older: string) => contradiction(factsOf(newer), factsOf(older))

  it('finds a negation flip and a changed value on the same subject', () => {
    expect(kind('Do not use Jest for the unit tests', 'We use Jest for the unit tests')).toBe(
      'negation',
    )
    expect(kind('We use Jest for the unit tests', "We don't use Jest for the unit tests")).toBe(
      'negation',
    )
    expect(kind('Use Node 20 for the backend', 'Use Node 18 for the backend')).toBe('value')
    expect(kind('We use Vitest for the unit tests', 'We use Jest for the unit tests')).toBe('value')
  })

  it('leaves different subjects, the same fact, and two-word lines alone', () => {
    expect(kind('Use Node 20 for the backend', 'Use Node 18 for the frontend')).toBeNull()
    expect(
      kind('Rotate staging keys every 30 days', 'Rotate production keys every 90 days'),
    ).toBeNull()
    expect(kind('Use Node 20 for the backend', 'Use Node 20 for the backend')).toBeNull()
    expect(kind('Use Docker', 'Use Jest')).toBeNull()
    expect(
      kind('Do not use Jest for the unit tests', 'We use Vitest for the unit tests'),
    ).toBeNull()
  })

  it('never finds one between sentences with different subject words', () => {
    fc.assert(
      fc.property(sentence, sentence, (left, right) => {
        const a = factsOf(left.join(' '))
        const b = factsOf(right.join(' '))
        const sameSubject =
          a.subject.size === b.subject.size && [...a.subject].every((w) => b.subject.has(w))
        if (!sameSubject) expect(contradiction(a, b)).toBeNull()
      }),
    )
  })
})

describe('citedSources', () => {
  it('reads the ids of a sources comment, with or without model and date', () => {
    expect(citedSources('- x <!-- sources: bm_1, s2; extractive 2026-11-21 -->')).toEqual([
      'bm_1',
      's2',
    ])
    expect(citedSources('- x <!-- sources: s0 -->')).toEqual(['s0'])
    expect(citedSources('- x')).toEqual([])
  })
})

describe('indexOfSameMeaning', () => {
  const said = (quote: string) => `- In the user's words: "${quote}"`
  it('finds one preference said in other words, quotes and capitals aside', () => {
    const lines = [said('Always prefer pnpm over npm when installing packages, please.')]
    expect(
      indexOfSameMeaning(
        `In the user's words: "Remember: I prefer pnpm to npm for package installs."`,
        lines,
      ),
    ).toBe(0)
    expect(
      indexOfSameMeaning('Brief prompts ("Add the CSV export.").', [
        '- Brief prompts ("Fix it.", "Ship").',
      ]),
    ).toBe(0)
  })

  it('keeps facts apart that differ in a number, a name, a polarity or their subject', () => {
    expect(
      indexOfSameMeaning(said('Use Node 18 for the backend.'), [
        said('Use Node 20 for the backend.'),
      ]),
    ).toBe(-1)
    expect(
      indexOfSameMeaning(said('Use Jest for unit tests.'), [
        said('Do not use Jest for unit tests.'),
      ]),
    ).toBe(-1)
    expect(
      indexOfSameMeaning(said('Use tabs for indentation.'), [said('Use spaces for indentation.')]),
    ).toBe(-1)
    expect(indexOfSameMeaning(said('Deploy with Fly.'), [said('Deploy with Render.')])).toBe(-1)
    // Only list lines are entries: a heading or prose saying the same is not one.
    expect(indexOfSameMeaning('Prefer pnpm over npm.', ['Prefer pnpm over npm.'])).toBe(-1)
  })
})
