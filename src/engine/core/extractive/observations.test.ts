import { describe, expect, it } from 'vitest'
import { extractObservations } from './observations.ts'
import type { TextUnit } from './sentences.ts'

const at = (time: string) => `2026-02-12T${time}:00Z`

/**
 * A working session in seed 004's style (docs/design/origins.md): a win, a blocked deploy, a
 * lesson, small talk.
 */
const SESSION: TextUnit[] = [
  { id: 'm1', speaker: 'agent', text: 'Good morning! Thanks for waiting.', timestamp: at('09:00') },
  {
    id: 'm2',
    speaker: 'agent',
    text: 'PR #50 merged on the janee repo, my first contribution there.',
    timestamp: at('09:32'),
  },
  {
    id: 'm3',
    speaker: 'agent',
    text: 'Deploy to staging failed: the server rejected the API key.',
    timestamp: at('10:01'),
  },
  {
    id: 'm4',
    speaker: 'agent',
    text: 'I learned that the CI cache must be cleared after a lockfile change.',
    timestamp: at('10:15'),
  },
  {
    id: 'm5',
    speaker: 'agent',
    text: 'The dev environment runs Node 20.19 on 2 cores.',
    timestamp: at('10:20'),
  },
  { id: 'm6', speaker: 'agent', text: 'Haha, wow. Cool!', timestamp: at('10:21') },
  {
    id: 'm7',
    speaker: 'agent',
    text: 'Tests on Windows failed with EPERM.',
    timestamp: at('11:00'),
  },
  {
    id: 'm8',
    speaker: 'agent',
    text: 'Fixed by closing the file handle before the rename.',
    timestamp: at('11:05'),
  },
]

describe('extractObservations', () => {
  const observations = extractObservations(SESSION)
  const priorityOf = (id: string) =>
    observations.find((item) => item.sources.includes(id))?.priority

  it('marks wins and blocking errors RED, lessons and resolved errors YLW, plain facts GRN', () => {
    expect(priorityOf('m2')).toBe('RED')
    expect(priorityOf('m3')).toBe('RED')
    expect(priorityOf('m4')).toBe('YLW')
    expect(priorityOf('m7')).toBe('YLW')
    expect(priorityOf('m5')).toBe('GRN')
  })

  it('drops chatter', () => {
    expect(priorityOf('m1')).toBeUndefined()
    expect(priorityOf('m6')).toBeUndefined()
  })

  it('lists RED first, then YLW, then GRN, each in input order, with HH:MM and the speaker', () => {
    const levels = observations.map((item) => item.priority)
    expect(levels).toEqual(
      [...levels].sort(
        (left, right) => 'RYG'.indexOf(left[0] ?? '') - 'RYG'.indexOf(right[0] ?? ''),
      ),
    )
    expect(observations[0]).toEqual({
      priority: 'RED',
      text: 'agent: PR #50 merged on the janee repo, my first contribution there.',
      sources: ['m2'],
      time: '09:32',
    })
  })

  it('merges a repeated statement into one observation with both sources', () => {
    const repeated = extractObservations([
      { id: 'a', text: 'The staging database runs PostgreSQL 16 on port 5433.' },
      { id: 'b', text: 'The staging database runs PostgreSQL 16 on port 5433!' },
    ])
    expect(repeated).toEqual([
      {
        priority: 'GRN',
        text: 'The staging database runs PostgreSQL 16 on port 5433.',
        sources: ['a', 'b'],
      },
    ])
  })
})
