import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countTriggerFires } from '../../core/session-ledger.ts'
import type { SleepState, Trigger } from '../../core/sleep-state.ts'
import { sampleSession } from '../../ports/sleep-state-store.contract.ts'
import { freshState } from './ledger-files.ts'
import { digitsInPlace, patchedFile, patchLedgerTriggers } from './patch-ledger-triggers.ts'
import { checkSleepState } from './sleep-state-check.ts'

/** The file as the store writes it. */
const fileOf = (state: unknown) => `${JSON.stringify(state, null, 2)}\n`

/** The state the store reads back from `text`. */
const readBack = (text: string) => checkSleepState(JSON.parse(text)) as SleepState

/** Text that looks like the ledger's own layout from inside a string. */
const tricky = fc.constantFrom(
  '\n  "triggers": [',
  '\n  ]',
  '"],\n  "x": 1',
  'plain',
  '',
  'émoji 🙂',
)

const trigger = (id: string, remind: string, fired: number): Trigger => ({
  id,
  when: 'release',
  remind,
  source: null,
  created_at: '2026-03-01T10:00:00.000Z',
  fired_count: fired,
  max_fires: 3,
})

const ledger = fc
  .record({
    reminds: fc.array(tricky, { minLength: 1, maxLength: 4 }),
    messages: fc.array(tricky, { maxLength: 3 }),
    extraKey: fc.boolean(),
  })
  .map(({ reminds, messages, extraKey }): SleepState => {
    const state: SleepState = {
      ...freshState(),
      sessions: messages.map((message, index) => ({
        ...sampleSession(`s${index}`, 1),
        last_assistant_message: message,
      })),
      triggers: reminds.map((remind, index) => trigger(`tr_${index}`, remind, index % 3)),
    }
    return extraKey ? ({ ...state, future_field: { nested: ['\n  ]'] } } as SleepState) : state
  })

describe('patchLedgerTriggers', () => {
  it('gives exactly the full write of the new state when only fire counts changed', () => {
    fc.assert(
      fc.property(ledger, fc.array(fc.nat(4), { maxLength: 3 }), (state, picks) => {
        const text = fileOf(state)
        const base = readBack(text)
        const fired = picks.map((pick) => `tr_${pick}`)
        const next = countTriggerFires(base, fired)
        if (next === base) return
        const bytes = Buffer.from(text)
        const patch = patchLedgerTriggers(bytes, base, next)
        if (patch === null) throw new Error('expected a patch')
        expect(patchedFile(bytes, patch).toString('utf8')).toBe(fileOf(next))
        // Written in place, the digits alone give the same file.
        const digits = digitsInPlace(patch)
        if (digits !== null) {
          const copy = Buffer.from(bytes)
          digits.bytes.copy(copy, digits.offset)
          expect(copy.toString('utf8')).toBe(fileOf(next))
          const isDigit = (byte: number | undefined) =>
            byte !== undefined && byte >= 48 && byte <= 57
          digits.bytes.forEach((byte, index) => {
            const old = bytes[digits.offset + index]
            if (old !== byte) expect(isDigit(old) && isDigit(byte)).toBe(true)
          })
        }
      }),
    )
  })

  it('overwrites in place only digits that keep their places', () => {
    const at = (fired: number) => ({ ...freshState(), triggers: [trigger('tr_a', 'x', fired)] })
    const patchFor = (from: number, to: number) => {
      const base = readBack(fileOf(at(from)))
      const next = { ...base, triggers: at(to).triggers }
      const patch = patchLedgerTriggers(Buffer.from(fileOf(at(from))), base, next)
      if (patch === null) throw new Error('expected a patch')
      return patch
    }
    expect(digitsInPlace(patchFor(1, 2))?.bytes.toString()).toBe('2')
    expect(digitsInPlace(patchFor(19, 20))?.bytes.toString()).toBe('20')
    // 9 → 10 moves every byte after it: the file is rewritten whole.
    expect(digitsInPlace(patchFor(9, 10))).toBeNull()
    expect(digitsInPlace(patchFor(3, 3))).toBeNull()
  })

  it('declines any other change, and files laid out differently', () => {
    const state: SleepState = { ...freshState(), triggers: [trigger('tr_a', 'check', 0)] }
    const base = readBack(fileOf(state))
    const fired = countTriggerFires(base, ['tr_a'])
    expect(patchLedgerTriggers(Buffer.from(fileOf(state)), base, fired)).not.toBeNull()
    // Something besides the triggers changed: only a full write is right.
    const alsoDebt = { ...fired, debt: 4 }
    expect(patchLedgerTriggers(Buffer.from(fileOf(state)), base, alsoDebt)).toBeNull()
    // Written by hand or another tool: compact, or indented otherwise.
    expect(patchLedgerTriggers(Buffer.from(JSON.stringify(state)), base, fired)).toBeNull()
    const fourSpaces = JSON.stringify(state, null, 4)
    expect(patchLedgerTriggers(Buffer.from(fourSpaces), base, fired)).toBeNull()
    // The array's text must be the triggers the state was read with.
    const edited = fileOf(state).replace('"check"', '"changed"')
    expect(patchLedgerTriggers(Buffer.from(edited), base, fired)).toBeNull()
  })
})
