import { describe, expect, it } from 'vitest'
import { backoffDelay, providerErrorMessage, retryAfterMs } from './post-json.ts'

describe('post-json helpers', () => {
  it('reads retry-after in milliseconds, seconds and as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120' }), now)).toBe(120)
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000)
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(
      5000,
    )
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(retryAfterMs(new Headers(), now)).toBeUndefined()
  })

  it('doubles the backoff per attempt up to a cap, with at most 25% jitter off', () => {
    expect(backoffDelay(0, () => 0)).toBe(500)
    expect(backoffDelay(1, () => 0)).toBe(1000)
    expect(backoffDelay(1, () => 0.999)).toBeGreaterThanOrEqual(750)
    expect(backoffDelay(10, () => 0)).toBe(8000)
  })

  it('finds the provider message in the common error body shapes', () => {
    expect(
      providerErrorMessage('{"type":"error","error":{"type":"x","message":"anthropic says"}}'),
    ).toBe('anthropic says')
    expect(providerErrorMessage('{"error":"ollama says"}')).toBe('ollama says')
    expect(providerErrorMessage('{"message":"gateway says"}')).toBe('gateway says')
    expect(providerErrorMessage('Bad Gateway')).toBe('Bad Gateway')
    expect(providerErrorMessage('')).toBe('(empty body)')
  })
})
