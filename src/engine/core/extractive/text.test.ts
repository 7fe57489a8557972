import { describe, expect, it } from 'vitest'
import { type CUES, sentenceFeatures } from './features.ts'
import { contentStems, shorten, splitSentences, stem, words } from './text.ts'
import { parseTimestamp } from './timestamps.ts'

describe('splitSentences', () => {
  it('splits on sentence ends and on line breaks, keeping abbreviations like "Dr." whole', () => {
    expect(splitSentences('Hey Mel! I saw Dr. Smith today. Was it fun?\nYes')).toEqual([
      'Hey Mel!',
      'I saw Dr. Smith today.',
      'Was it fun?',
      'Yes',
    ])
  })

  it('returns nothing for blank text', () => {
    expect(splitSentences('  \n\n ')).toEqual([])
  })

  it('splits a line of 390,000 characters as it splits the same sentences one per line', () => {
    // The segmenter slows with the length of its string: a line this long is split by windows.
    const sentences = Array.from(
      { length: 6000 },
      (_, index) =>
        `Step ${index} passed after Dr. Lee fixed the cache key (see PR #${index % 97}).`,
    )
    const line = sentences.join(' ')
    expect(line.length).toBeGreaterThan(350_000)
    expect(splitSentences(line)).toEqual(splitSentences(sentences.join('\n')))
  })

  it("cuts a 'sentence' longer than the segmenter's window at the window, losing no text", () => {
    const line = `${'word '.repeat(5000)}end.`
    const pieces = splitSentences(line)
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe(line.trim().replace(/\s+/g, ' '))
  })
})

describe('words and stems', () => {
  it('keeps inner apostrophes and drops punctuation', () => {
    expect(words("I'm fine — it's 3:30, isn't it?")).toEqual([
      "I'm",
      'fine',
      "it's",
      '3',
      '30',
      "isn't",
      'it',
    ])
  })

  it('stems content words with Porter and drops NLTK stop words and possessives', () => {
    expect(contentStems("The painters were painting Caroline's paintings")).toEqual([
      'painter',
      'paint',
      'carolin',
      'paint',
    ])
    expect(stem('Running')).toBe('run')
    expect(stem('2023')).toBe('2023')
  })

  it('shortens at a word boundary with an ellipsis', () => {
    expect(shorten('one two three four five', 12)).toBe('one two…')
    expect(shorten('short', 12)).toBe('short')
  })
})

describe('parseTimestamp', () => {
  it('reads ISO 8601 as written, without time-zone conversion', () => {
    expect(parseTimestamp('2026-02-12T09:32:00Z')).toEqual({ date: '2026-02-12', time: '09:32' })
  })

  it("reads LoCoMo's prose timestamps into a date and a 24-hour time", () => {
    expect(parseTimestamp('1:56 pm on 8 May, 2023')).toEqual({ date: '8 May 2023', time: '13:56' })
    expect(parseTimestamp('12:05 am on March 3rd, 2024')).toEqual({
      date: '3 March 2024',
      time: '00:05',
    })
  })

  it('gives nothing for a missing or dateless timestamp', () => {
    expect(parseTimestamp(undefined)).toEqual({})
    expect(parseTimestamp('soon')).toEqual({})
  })
})

describe('sentenceFeatures', () => {
  const speakers = new Set(['caroline', 'melanie'])

  it('counts names that are not sentence starts, speakers or their nicknames', () => {
    const features = sentenceFeatures('Thanks Mel, I met Anna and Caroline in Boston.', speakers)
    expect(features.names).toEqual(['anna', 'boston'])
  })

  it('marks greetings, thanks and laughter as chatter, and facts as not', () => {
    for (const chatter of ['Hey Mel!', 'Thanks so much!', 'Haha, that is so cool!', 'Wow!']) {
      expect(sentenceFeatures(chatter, speakers).chatter, chatter).toBe(true)
    }
    expect(sentenceFeatures('Thanks, the build failed on Node 18.', speakers).chatter).toBe(false)
  })

  it('finds the cue kinds the brief names', () => {
    const cases: [string, keyof typeof CUES][] = [
      ['We decided to use Postgres.', 'decision'],
      ['Actually, the meeting is on Monday.', 'correction'],
      ['The deploy failed with a timeout.', 'error'],
      ['Fixed by pinning the version.', 'fix'],
      ['I prefer tabs.', 'preference'],
      ['The report is due by Friday.', 'commitment'],
      ['Never commit the API key.', 'credential'],
      ['PR #50 merged today.', 'win'],
    ]
    for (const [sentence, kind] of cases)
      expect(sentenceFeatures(sentence).cues, sentence).toContain(kind)
    expect(sentenceFeatures("I won't give up!").cues).not.toContain('win')
  })

  it('counts dates and numbers', () => {
    const features = sentenceFeatures('On 7 May 2023 at 6:30 pm we paid $45.')
    expect(features.dates).toBeGreaterThanOrEqual(3)
    expect(features.numbers).toBeGreaterThanOrEqual(3)
  })
})
