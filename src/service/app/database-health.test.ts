import { describe, expect, it } from 'vitest'
import { databaseHealthCheck } from './database-health.ts'

/** A probe the test answers or fails by hand, counting how often it was sent. */
function heldProbe() {
  let release: () => void = () => {}
  let fail: (error: Error) => void = () => {}
  let sent = 0
  return {
    probe: () => {
      sent += 1
      return new Promise<void>((resolve, reject) => {
        release = resolve
        fail = reject
      })
    },
    release: () => release(),
    fail: (error: Error) => fail(error),
    sent: () => sent,
  }
}

describe('databaseHealthCheck', () => {
  it('answers "now" when the probe answers', async () => {
    const check = databaseHealthCheck({
      probe: async () => {},
      lastAnswerAt: () => null,
      now: () => 1_000,
    })
    expect(await check()).toEqual({ checked: 'now', answeredMsAgo: 0 })
  })

  it('lets a recent answer stand for a probe queued behind other work, one probe at a time', async () => {
    const held = heldProbe()
    const check = databaseHealthCheck({
      probe: held.probe,
      lastAnswerAt: () => 9_000,
      now: () => 10_000,
      waitMs: 1,
    })
    expect(await check()).toEqual({ checked: 'recently', answeredMsAgo: 1_000 })
    expect(await check()).toEqual({ checked: 'recently', answeredMsAgo: 1_000 })
    expect(held.sent()).toBe(1)
    held.release()
    await new Promise((resolve) => setTimeout(resolve, 0))
    const next = check()
    expect(held.sent()).toBe(2)
    held.release()
    expect(await next).toEqual({ checked: 'now', answeredMsAgo: 0 })
  })

  it('waits for the probe when nothing answered recently', async () => {
    const held = heldProbe()
    const check = databaseHealthCheck({
      probe: held.probe,
      lastAnswerAt: () => 1_000,
      now: () => 10_000,
      waitMs: 1,
      recentMs: 5_000,
    })
    const answer = check()
    await new Promise((resolve) => setTimeout(resolve, 5))
    held.release()
    expect(await answer).toEqual({ checked: 'now', answeredMsAgo: 0 })
  })

  it('fails when the probe fails, however recent the last answer', async () => {
    const check = databaseHealthCheck({
      probe: () => Promise.reject(new Error('connection refused')),
      lastAnswerAt: () => 10_000,
      now: () => 10_000,
    })
    await expect(check()).rejects.toThrow('connection refused')
  })

  it('fails when a slow probe fails and nothing answered recently', async () => {
    const held = heldProbe()
    const check = databaseHealthCheck({
      probe: held.probe,
      lastAnswerAt: () => null,
      now: () => 10_000,
      waitMs: 1,
    })
    const answer = check()
    await new Promise((resolve) => setTimeout(resolve, 5))
    held.fail(new Error('gone'))
    await expect(answer).rejects.toThrow('gone')
  })
})
