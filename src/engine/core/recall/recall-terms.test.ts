import { describe, expect, it } from 'vitest'
import { recallTerms } from './recall-terms.ts'
import { snippetOf } from './snippet.ts'

describe('recallTerms', () => {
  it('stems words and drops function words', () => {
    expect(recallTerms('The tests were failing')).toEqual(['test', 'fail'])
  })

  it('keeps a code name whole beside its parts', () => {
    expect(recallTerms('load_session_messages')).toEqual([
      'load_session_messages',
      'load',
      'session',
      'messag',
    ])
    expect(recallTerms('TranscriptComputers')).toEqual([
      'transcriptcomputers',
      'transcript',
      'comput',
    ])
    expect(recallTerms('spotter-fum.5 highlight.js')).toEqual([
      'spotter-fum.5',
      'spotter',
      'fum',
      '5',
      'highlight.js',
      'highlight',
      'js',
    ])
  })

  it('reads a contraction as a word, and skips long blobs', () => {
    expect(recallTerms("it's the user's don't")).toEqual(['user'])
    expect(recallTerms(`token ${'a'.repeat(200)}`)).toEqual(['token'])
  })
})

describe('snippetOf', () => {
  it('keeps a short text whole, folding whitespace', () => {
    expect(snippetOf('one\n  two', ['two'], 50)).toBe('one two')
  })

  it('cuts a long text around the most matched terms, within the budget', () => {
    const text = `${'filler words here. '.repeat(30)}the websocket never closes so tests hang. ${'more filler. '.repeat(30)}`
    const snippet = snippetOf(text, recallTerms('websocket tests'), 80)
    expect(snippet.length).toBeLessThanOrEqual(80)
    expect(snippet).toContain('websocket never closes so tests hang')
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
  })

  it('starts at the beginning when nothing matched', () => {
    expect(snippetOf('a b c d e f g h i j k', ['zzz'], 10)).toBe('a b c d e…')
  })
})
