import { describe, expect, it } from 'vitest'
import { reflect } from './reflection.ts'

describe('reflect', () => {
  const observations = [
    { id: 'o1', text: 'RED 09:32 PR #50 merged on janee repo — first successful contribution' },
    { id: 'o2', text: 'YLW 09:32 No responses yet to comments — too early to judge impact' },
    { id: 'o3', text: 'RED 10:01 Deploy failed: the API key for the staging server was rejected' },
    { id: 'o4', text: 'GRN 09:32 Dev environment verified working after reboot' },
    { id: 'o5', text: 'YLW 10:30 Will write the migration guide next' },
  ]

  it('counts by priority, names what got done and what is open', () => {
    const result = reflect(observations)
    expect(result.reflection).toMatch(/^5 observations \(2 RED, 2 YLW, 1 GRN\)\./)
    expect(result.reflection).toContain('Done (1): PR #50 merged')
    expect(result.reflection).toContain('Open (2): Deploy failed')
  })

  it('names the most urgent open item as the priority, citing its sources', () => {
    const result = reflect(observations)
    expect(result.priority).toBe('Deploy failed: the API key for the staging server was rejected')
    expect(result.sources).toEqual(['o1', 'o3', 'o5'])
  })

  it('classifies unmarked observations by their cues and says so when nothing is open', () => {
    const result = reflect([{ id: 'x', text: 'Shipped the 1.2 release.' }])
    expect(result.reflection).toContain('1 RED')
    expect(result.priority).toBe('No open items: choose the next goal.')
    expect(reflect([]).sources).toEqual([])
  })
})
