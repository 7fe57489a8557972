import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  consolidationPrompt,
  parseConsolidation,
  renderConsolidation,
} from './consolidation-format.ts'

const GOOD = `OBSERVATIONS:
RED 09:32 PR #50 merged on janee repo — first successful contribution [lines 3, 4]
YLW 09:32 No responses yet to comments — too early to judge impact
GRN 09:32 Dev environment verified working after reboot

REFLECTION:
Real progress made. I got my first PR merged.

PRIORITY:
Monitor responses to my two comments.
`
const KNOWN = { first: 1, last: 10 }

function problemOf(answer: string): string {
  const parsed = parseConsolidation(answer, KNOWN)
  if (parsed.ok) throw new Error('expected a refusal')
  return parsed.problem
}

describe('parseConsolidation', () => {
  it('reads the seed format, with the optional lines tag', () => {
    const parsed = parseConsolidation(GOOD, KNOWN)
    expect(parsed).toEqual({
      ok: true,
      value: {
        observations: [
          {
            priority: 'RED',
            time: '09:32',
            text: 'PR #50 merged on janee repo — first successful contribution',
            lines: [3, 4],
          },
          {
            priority: 'YLW',
            time: '09:32',
            text: 'No responses yet to comments — too early to judge impact',
            lines: [],
          },
          {
            priority: 'GRN',
            time: '09:32',
            text: 'Dev environment verified working after reboot',
            lines: [],
          },
        ],
        reflection: 'Real progress made. I got my first PR merged.',
        priority: 'Monitor responses to my two comments.',
      },
    })
  })

  it('forgives a code fence and CRLF line ends, nothing else', () => {
    expect(parseConsolidation(`\`\`\`text\n${GOOD.trim()}\n\`\`\``, KNOWN).ok).toBe(true)
    expect(parseConsolidation(GOOD.replace(/\n/g, '\r\n'), KNOWN).ok).toBe(true)
  })

  it('accepts an empty OBSERVATIONS section', () => {
    const parsed = parseConsolidation(
      'OBSERVATIONS:\n\nREFLECTION:\nQuiet.\n\nPRIORITY:\nRest.',
      KNOWN,
    )
    expect(parsed.ok && parsed.value.observations).toEqual([])
  })

  it.each([
    ['a missing header', GOOD.replace('PRIORITY:', 'NEXT:'), /found OBSERVATIONS, REFLECTION\)/],
    [
      'headers out of order',
      'REFLECTION:\nx\nOBSERVATIONS:\nRED 09:00 a\nPRIORITY:\ny',
      /in that order/,
    ],
    ['a repeated header', `${GOOD}\nPRIORITY:\nagain`, /once each/],
    [
      'a markdown header',
      GOOD.replace('OBSERVATIONS:', '## OBSERVATIONS:'),
      /found REFLECTION, PRIORITY/,
    ],
    ['prose before the answer', `Here is my consolidation:\n${GOOD}`, /text before OBSERVATIONS/],
    [
      'an unknown priority',
      GOOD.replace('GRN 09:32', 'ORANGE 09:32'),
      /is not "RED\|YLW\|GRN HH:MM fact"/,
    ],
    ['a bullet', GOOD.replace('YLW 09:32', '- YLW 09:32'), /is not "RED\|YLW\|GRN HH:MM fact"/],
    ['an impossible time', GOOD.replace('GRN 09:32', 'GRN 25:10'), /HH:MM/],
    ['a one-digit hour', GOOD.replace('GRN 09:32', 'GRN 9:32'), /HH:MM/],
    ['a missing time', GOOD.replace('GRN 09:32 ', 'GRN '), /HH:MM/],
    [
      'a fact that is only a tag',
      'OBSERVATIONS:\nRED 09:00 [lines 2]\nREFLECTION:\nx\nPRIORITY:\ny',
      /has no fact/,
    ],
    ['lines outside the activity', GOOD.replace('[lines 3, 4]', '[lines 3, 40]'), /cites lines 40/],
    [
      'an empty reflection',
      GOOD.replace('Real progress made. I got my first PR merged.', ''),
      /REFLECTION: is empty/,
    ],
    [
      'an empty priority',
      GOOD.replace('Monitor responses to my two comments.', '  '),
      /PRIORITY: is empty/,
    ],
    [
      'a paragraph as a fact',
      GOOD.replace('Dev environment', 'x'.repeat(700)),
      /keep each under 600/,
    ],
    ['nothing at all', '', /found none/],
    ['JSON instead', '{"observations": []}', /found none/],
  ])('refuses %s, naming the problem', (_, answer, problem) => {
    expect(problemOf(answer)).toMatch(problem)
  })

  it('reads back whatever it renders (property)', () => {
    const text = fc
      .string({ minLength: 1, maxLength: 80 })
      .filter((value) => value.trim() !== '' && !/\[lines?/.test(value))
    const observation = fc.record({
      priority: fc.constantFrom('RED' as const, 'YLW' as const, 'GRN' as const),
      time: fc
        .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(
          ([hours, minutes]) =>
            `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`,
        ),
      text,
      lines: fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { maxLength: 3 }),
    })
    fc.assert(
      fc.property(
        fc.array(observation, { maxLength: 8 }),
        text,
        text,
        (observations, reflection, priority) => {
          const value = { observations, reflection, priority }
          const parsed = parseConsolidation(renderConsolidation(value), KNOWN)
          const flat = (item: string) => item.replace(/\s+/g, ' ').trim()
          expect(parsed.ok).toBe(true)
          if (!parsed.ok) return
          expect(parsed.value.observations).toEqual(
            observations.map((item) => ({ ...item, text: flat(item.text) })),
          )
          expect(parsed.value.priority).toBe(flat(priority))
        },
      ),
    )
  })

  it('numbers the activity lines in the prompt and says what was wrong on a retry', () => {
    const prompt = consolidationPrompt(
      [
        {
          line: 7,
          t: '2026-02-12T09:30:00Z',
          time: '09:30',
          speaker: 'tool bash',
          text: 'gh pr merge 50\n→ merged',
        },
      ],
      { now: '2026-02-12T09:32:00Z', deep: true, problem: 'REFLECTION: is empty.' },
    )
    expect(prompt).toContain('[7] 09:30 tool bash: gh pr merge 50 → merged')
    expect(prompt).toContain('deep sleep')
    expect(prompt).toContain('could not be read: REFLECTION: is empty.')
  })
})
