import { describe, expect, it } from 'vitest'
import { spanIncludes } from './json-bytes.ts'

/** Records how many bytes each native search could read (its array's length past `from`). */
class CountingBytes extends Uint8Array {
  static reach: number[] = []
  override indexOf(value: number, from = 0): number {
    CountingBytes.reach.push(this.length - from)
    return super.indexOf(value, from)
  }
}

describe('spanIncludes', () => {
  it('finds the needle inside the span only', () => {
    const bytes = new TextEncoder().encode('aaa _agent_context bbb')
    const needle = new TextEncoder().encode('_agent_context')
    expect(spanIncludes(bytes, 0, bytes.length, needle, 7)).toBe(true)
    expect(spanIncludes(bytes, 0, 10, needle, 7)).toBe(false)
  })

  it('never searches past the span: a span without the anchor costs its own length, not the rest of the line', () => {
    const line = new CountingBytes(1_000_000)
    line.set(new TextEncoder().encode('k'), 999_999)
    CountingBytes.reach = []
    expect(spanIncludes(line, 0, 100, new TextEncoder().encode('tasks'), 3)).toBe(false)
    expect(Math.max(...CountingBytes.reach, 0)).toBeLessThanOrEqual(100)
  })
})
