import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareText, plainCompare, textComparator } from './compare-text.ts'

/** Short strings from letters, digits, punctuation, capitals and a non-ASCII letter. */
const text = fc.string({ unit: fc.constantFrom(...'ab-.09zAZ_ T:é'.split('')), maxLength: 6 })

describe('compareText', () => {
  it('answers plainly only where English collation agrees with code units', () => {
    let answered = 0
    fc.assert(
      fc.property(text, text, (a, b) => {
        const plain = plainCompare(a, b)
        if (plain === undefined) return
        answered += 1
        expect(plain).toBe(Math.sign(a.localeCompare(b, 'en')))
        expect(plain).toBe(Math.sign(a.localeCompare(b, 'und')))
      }),
      { numRuns: 20_000 },
    )
    expect(answered).toBeGreaterThan(3_000)
  })

  it('always has the sign of localeCompare in this process', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareText(a, b))).toBe(Math.sign(a.localeCompare(b)))
      }),
      { numRuns: 5_000 },
    )
  })

  it('orders slugs and ISO times as they come', () => {
    expect(plainCompare('note-10', 'note-9')).toBe(-1)
    expect(plainCompare('2026-01-02T10:00:00.000Z', '2026-01-02T09:59:59.999Z')).toBe(1)
    expect(plainCompare('abc', 'abcd')).toBe(-1)
    expect(plainCompare('Apple', 'apple')).toBeUndefined()
  })

  it("gives localeCompare's sign for any pair of the values it was made for", () => {
    const slug = fc.string({ unit: fc.constantFrom(...'ab-.09z'.split('')), maxLength: 6 })
    const time = fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString())
    const day = fc.constantFrom('2026-01-02', '2026-11-30', '1999-12-31', '')
    const values = fc.oneof(
      fc.array(slug, { minLength: 1, maxLength: 8 }),
      fc.array(fc.oneof(time, fc.constant('')), { minLength: 1, maxLength: 8 }),
      fc.array(day, { minLength: 1, maxLength: 8 }),
      fc.array(fc.oneof(text, time, slug), { minLength: 1, maxLength: 8 }),
    )
    fc.assert(
      fc.property(values, (list) => {
        const compare = textComparator(list)
        for (const a of list) {
          for (const b of list) expect(Math.sign(compare(a, b))).toBe(Math.sign(a.localeCompare(b)))
        }
      }),
      { numRuns: 3_000 },
    )
  })
})
