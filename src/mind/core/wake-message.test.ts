import { describe, expect, it } from 'vitest'
import { resolveMindConfig } from './mind-config.ts'
import { wakeMessage } from './wake-message.ts'

describe('wakeMessage', () => {
  it("writes the seed's wake-up message", () => {
    const message = wakeMessage(
      {
        now: new Date('2026-02-12T09:37:44.120Z'),
        sleptSeconds: 300,
        cycle: 4,
        reflection: 'Real progress made. I successfully got my first PR merged.',
        priority: 'Monitor responses to my two comments',
        recentObservations: ['RED 09:32 PR #50 merged — first successful contribution'],
        folder: '.self',
      },
      resolveMindConfig(),
    )
    expect(message).toBe(`You woke up at 2026-02-12T09:37:44Z after sleeping 300s. This is cycle 4.

During sleep you reflected:
Real progress made. I successfully got my first PR merged.

Your priority: Monitor responses to my two comments

Recent observations:
RED 09:32 PR #50 merged — first successful contribution

Full history: .self/conversation.jsonl and .self/observations.md — search with rg or jq, or \`somnus mind recall <query>\`.
Check MESSAGES.md for any new instructions from your creator.`)
  })

  it('leaves out what it does not have, and the creator line when configured off', () => {
    const message = wakeMessage(
      {
        now: new Date('2026-02-12T09:37:44Z'),
        sleptSeconds: 12.4,
        cycle: 1,
        reflection: null,
        priority: null,
        recentObservations: [],
        folder: 'memory',
      },
      resolveMindConfig({ creatorMessagesFile: null }),
    )
    expect(message).toContain('after sleeping 12s')
    expect(message).not.toMatch(/reflected|priority|Recent observations|MESSAGES\.md/)
  })
})
