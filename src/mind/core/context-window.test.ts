import { describe, expect, it } from 'vitest'
import type { NumberedEntry } from './activity.ts'
import { contextWindow } from './context-window.ts'
import { resolveMindConfig } from './mind-config.ts'
import type { ConversationEntry } from './mind-state.ts'

const config = resolveMindConfig()
const entry = (line: number, role: ConversationEntry['role'], content: string): NumberedEntry => ({
  line,
  entry: { t: '2026-02-12T09:00:00Z', role, content, ...(role === 'tool' ? { tool: 'bash' } : {}) },
})

describe('contextWindow', () => {
  it('keeps everything while it fits in 20 messages', () => {
    const entries = Array.from({ length: 20 }, (_, index) =>
      entry(index + 1, index % 2 ? 'assistant' : 'user', `m${index + 1}`),
    )
    expect(contextWindow(entries, config)).toEqual({ digest: null, messages: entries, dropped: 0 })
  })

  it('keeps the last 20 and replaces the rest by a digest naming their lines', () => {
    const entries = Array.from({ length: 30 }, (_, index) =>
      entry(index + 1, index % 2 ? 'assistant' : 'user', `message ${index + 1}`),
    )
    const window = contextWindow(entries, config)
    expect(window.messages.map((item) => item.line)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 11),
    )
    expect(window.digest).toContain('lines 1-10')
    expect(window.digest).toContain('> message 1')
    expect(window.digest).toContain('thought: message 2')
  })

  it('never starts on a tool result: its call comes with it', () => {
    const entries = Array.from({ length: 25 }, (_, index) =>
      entry(index + 1, index === 4 ? 'assistant' : index === 5 ? 'tool' : 'user', `m${index + 1}`),
    )
    const window = contextWindow(entries, config)
    expect(window.messages[0]?.line).toBe(5)
    expect(window.messages).toHaveLength(21)
  })

  it('drops more into the digest when the window exceeds 100,000 characters', () => {
    const entries = Array.from({ length: 10 }, (_, index) =>
      entry(index + 1, 'user', 'x'.repeat(30_000)),
    )
    const window = contextWindow(entries, config)
    expect(window.messages).toHaveLength(3)
    expect(
      window.messages.reduce((sum, item) => sum + item.entry.content.length, 0),
    ).toBeLessThanOrEqual(100_000)
    expect(window.dropped).toBe(7)
  })
})
