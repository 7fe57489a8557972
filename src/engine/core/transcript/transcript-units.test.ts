import { describe, expect, it } from 'vitest'
import { countWindowFor } from './transcript-analyzer.ts'
import { TranscriptUnitCollector } from './transcript-units.ts'

const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'user',
    uuid,
    timestamp: `2026-03-01T10:00:0${uuid.length % 10}.000Z`,
    message: { role: 'user', content },
    ...extra,
  })
const assistant = (uuid: string, content: unknown[]) =>
  JSON.stringify({
    type: 'assistant',
    uuid,
    timestamp: '2026-03-01T10:01:00.000Z',
    message: { id: `msg_${uuid}`, role: 'assistant', content },
  })
const text = (value: string) => ({ type: 'text', text: value })
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } })

function collect(lines: string[], since?: string) {
  const collector = new TranscriptUnitCollector(countWindowFor(since))
  for (const line of lines) collector.addLine(line)
  collector.finish()
  return collector.units.map((unit) => `${unit.speaker}:${unit.id}`)
}

describe('TranscriptUnitCollector', () => {
  it('keeps prompts and the text that ends each turn, not narration before a tool call', () => {
    const lines = [
      user('u1', 'Please fix the login timeout. I prefer small commits.'),
      assistant('a1', [text('Let me look at the login module first, then run the tests.')]),
      assistant('a2', [toolUse('t1')]),
      user('r1', [{ type: 'tool_result', tool_use_id: 't1', content: 'login.ts' }]),
      assistant('a3', [text('Fixed it: the refresh timeout is now 15 seconds instead of 5.')]),
      user('u2', 'Thanks, now update the docs too.'),
      assistant('a4', [text('Updated docs/login.md with the new timeout and the reason.')]),
    ]
    expect(collect(lines)).toEqual(['user:u1', 'assistant:a3', 'user:u2', 'assistant:a4'])
  })

  it('skips meta and machine prompts, short acknowledgements, sub-agent lines and bad JSON', () => {
    const lines = [
      user('m1', 'Caveat: injected context', { isMeta: true }),
      user('c1', '<command-name>/clear</command-name>'),
      assistant('a1', [text('OK.')]),
      user('s1', 'sub-agent prompt', { isSidechain: true }),
      '{ not json',
      user('u1', 'A real question about caching?'),
    ]
    expect(collect(lines)).toEqual(['user:u1'])
  })

  it('leaves out what was consolidated before `since`', () => {
    const lines = [
      user('u1', 'Old prompt from before the last sleep'),
      assistant('a9', [text('A new answer after the last sleep, long enough.')]),
    ]
    expect(collect(lines, '2026-03-01T10:00:30.000Z')).toEqual(['assistant:a9'])
  })
})
