import { describe, expect, it } from 'vitest'
import { startStandInServer } from '../../../../test/support/stand-in-server.ts'
import { SomnusError } from '../../core/errors.ts'
import {
  backoffDelay,
  postJson,
  providerErrorMessage,
  retryAfterMs,
  sleepFor,
} from './post-json.ts'

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

describe('postJson cancellation', () => {
  it('stops retrying when the signal fires during a backoff, with ABORTED', async () => {
    const server = await startStandInServer((_request, response) => {
      response.writeHead(503, { 'content-type': 'application/json' })
      response.end('{"error":"overloaded"}')
    })
    try {
      const controller = new AbortController()
      const error = await postJson({
        provider: 'test',
        url: server.url,
        headers: {},
        body: {},
        maxRetries: 5,
        signal: controller.signal,
        // The caller gives up while Somnus waits to retry the first 503.
        sleep: async () => controller.abort(),
      }).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(SomnusError)
      expect((error as SomnusError).code).toBe('ABORTED')
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('ends the real backoff wait as soon as the signal fires', async () => {
    const controller = new AbortController()
    const waiting = sleepFor(10 * 60_000, controller.signal)
    controller.abort()
    // A ten-minute wait that settles at all has been cut short by the signal.
    await expect(waiting).resolves.toBeUndefined()
  })
})
