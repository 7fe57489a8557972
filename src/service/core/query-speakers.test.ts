import { describe, expect, it } from 'vitest'
import { speakerBoosts } from './query-speakers.ts'

describe('speakerBoosts', () => {
  const speakers = ['Nate', 'Joanna', 'Nate', 'Joanna', null]

  it("weighs up the turns of the speaker a question names, whatever the name's case", () => {
    const boosts = speakerBoosts('When did nate win his third tourney?', speakers)
    expect(boosts?.[0]).toBeGreaterThan(1)
    expect(boosts?.[2]).toBe(boosts?.[0])
    expect([boosts?.[1], boosts?.[3], boosts?.[4]]).toEqual([1, 1, 1])
  })

  it('counts naming every speaker for almost nothing, and no name for nothing', () => {
    const both = speakerBoosts('What do Nate and Joanna share?', speakers)
    const one = speakerBoosts('What does Nate like?', speakers)
    expect(both?.[0]).toBeLessThan(one?.[0] ?? 0)
    expect(speakerBoosts('What was the tournament?', speakers)).toBeNull()
    expect(speakerBoosts('Nate?', [null, null])).toBeNull()
  })
})
