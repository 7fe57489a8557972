import { describe, expect, it } from 'vitest'
import { categoryOf, extractPatterns, guessDomain } from './patterns.ts'
import type { TextUnit } from './sentences.ts'

/** An excerpt of a coding session, written the way Claude Code sessions read. */
const TRANSCRIPT: TextUnit[] = [
  { id: 'u1', speaker: 'user', text: 'The comments page is slow again, can you look?' },
  {
    id: 'a1',
    speaker: 'assistant',
    text: 'The log shows an N+1 query: 200 SELECTs on comments for one page.',
  },
  {
    id: 'a2',
    speaker: 'assistant',
    text: 'The root cause was that ActiveRecord includes(:commentable) does not eager load polymorphic associations. Fixed by switching to preload(:commentable).',
  },
  {
    id: 'a3',
    speaker: 'assistant',
    text: 'Running bundle exec rspec failed with LoadError: cannot load such file -- pg.',
  },
  {
    id: 'a4',
    speaker: 'assistant',
    text: 'The fix was to run bundle install after switching Ruby versions.',
  },
  { id: 'u2', speaker: 'user', text: 'Thanks! I prefer small commits, one per fix, please.' },
  {
    id: 'a5',
    speaker: 'assistant',
    text: 'Gotcha: PGlite initdb takes about 3 seconds, so the tests create one database per file.',
  },
  {
    id: 'a6',
    speaker: 'assistant',
    text: 'We decided to keep the job queue in Postgres instead of adding a Redis service.',
  },
  {
    id: 'a7',
    speaker: 'assistant',
    text: 'In this codebase, service objects always return a Result, never raise.',
  },
  { id: 'u3', speaker: 'user', text: 'Great, thanks!' },
]

describe('extractPatterns', () => {
  const patterns = extractPatterns(TRANSCRIPT)
  const byCategory = (category: string) =>
    patterns.filter((pattern) => pattern.tags[0] === category)

  it('finds the debugging insight with its fix as details and the symptom as context', () => {
    const [insight] = byCategory('debugging-insight')
    expect(insight?.observation).toContain('includes(:commentable)')
    expect(insight?.details).toContain('preload(:commentable)')
    expect(insight?.context).toContain('N+1 query')
    expect(insight?.domain).toBe('rails')
    expect(insight?.sources).toEqual(['a2', 'a1'])
  })

  it('pairs a tool failure with the resolution that followed', () => {
    const [failure] = byCategory('tool-failure')
    expect(failure?.observation).toContain('LoadError')
    expect(failure?.details).toContain('bundle install')
    expect(failure?.sources).toContain('a4')
  })

  it('finds the preference, the gotcha, the decision and the convention, with domains', () => {
    expect(byCategory('user-preference')[0]?.observation).toContain('small commits')
    expect(byCategory('gotcha')[0]?.domain).toBe('postgres')
    expect(byCategory('architectural-decision')[0]?.observation).toContain('job queue in Postgres')
    expect(byCategory('convention')[0]?.observation).toContain('return a Result')
  })

  it('skips chatter and states nothing without a cue', () => {
    expect(
      patterns.some((pattern) => pattern.sources[0] === 'u3' || pattern.sources[0] === 'u1'),
    ).toBe(false)
  })

  it('fills every field the schema needs', () => {
    for (const pattern of patterns) {
      expect(pattern.title.length).toBeGreaterThan(0)
      expect(pattern.title.length).toBeLessThanOrEqual(72)
      expect(pattern.sources.length).toBeGreaterThan(0)
      expect(pattern.tags.length).toBeGreaterThan(1)
    }
  })
})

describe('categoryOf and guessDomain', () => {
  it('needs a tool for a failure and something technical for a decision', () => {
    expect(categoryOf('My cake failed to rise.')).toBeNull()
    expect(categoryOf('npm install failed with EACCES.')).toBe('tool-failure')
    expect(categoryOf('We decided to go to the beach.')).toBeNull()
    expect(categoryOf('We decided to split the API into two services.')).toBe(
      'architectural-decision',
    )
  })

  it('guesses the domain from technology words, else general', () => {
    expect(guessDomain('docker compose up hangs on the postgres container')).toBe('docker')
    expect(guessDomain('pytest fixtures leak state', 'in the django app')).toBe('python')
    expect(guessDomain('Always answer in a friendly tone')).toBe('general')
  })

  it('takes Elixir only from Elixir words, never from the English "mix" or "ash"', () => {
    expect(guessDomain('`mix test` fails: undefined function get/2 in session_live.ex')).toBe(
      'elixir',
    )
    expect(guessDomain('Rewrote the mix.exs deps and ran mix ash.codegen')).toBe('elixir')
    expect(guessDomain('Mix the ash into the soil, then commit the notes to git')).toBe('git')
    expect(guessDomain('A mix of npm scripts and ash trays')).toBe('node')
    expect(guessDomain('Removed from SessionLive since the shared component handles them')).toBe(
      'general',
    )
    expect(guessDomain('The Header.tsx component re-renders on every keystroke')).toBe('react')
    // Ties go to the language domains listed first; elixir comes after them.
    expect(guessDomain('the phoenix port of the python service')).toBe('python')
  })
})
