/**
 * The HTTP API's answers to client mistakes, part of describeHttpApi: every kind of bad input is a
 * 400 naming the field, never a 500; oversized and non-JSON bodies; unknown ids; revoked keys.
 */
import { expect, it } from 'vitest'
import { type Answer, type ApiFixture, get, handoffBody, json } from './http-api-requests.ts'

/** Defines the error cases inside the suite's describe; `api()` is its fixture once set up. */
export function errorCases(
  api: () => ApiFixture,
  send: (path: string, init?: RequestInit) => Promise<Answer>,
): void {
  it('answers 400 naming the field for every kind of bad input, never 500', async () => {
    const key = api().keys.first
    const cases: Array<[string, RequestInit, string]> = [
      ['/api/v1/consolidation/run', json(key, { job_type: 'defragment' }), 'job_type'],
      ['/api/v1/consolidation/run', json(key, '{"job_type": "all"'), 'body'],
      ['/api/v1/consolidation/run', json(key, { job_type: 7 }), 'job_type'],
      ['/api/v1/consolidation/run', json(key, { as_of: 'last tuesday' }), 'as_of'],
      ['/api/v1/consolidation/jobs?limit=-1', get(key), 'limit'],
      ['/api/v1/consolidation/jobs?limit=ten', get(key), 'limit'],
      ['/api/v1/consolidation/jobs?status=sleeping', get(key), 'status'],
      ['/api/v1/handoffs?limit=0', get(key), 'limit'],
      ['/api/v1/handoffs', json(key, { session_id: 42 }), 'session_id'],
      ['/api/v1/handoffs', json(key, handoffBody('s', { significance: 'high' })), 'significance'],
      ['/api/v1/handoffs', json(key, handoffBody('s', { significance: 3 })), 'significance'],
      ['/api/v1/handoffs', json(key, handoffBody('s', { tags: 'perf' })), 'tags'],
      ['/api/v1/handoffs', json(key, handoffBody('s', { created_at: 'soon' })), 'created_at'],
      ['/api/v1/handoffs', json(key, handoffBody('s', { mood: 'good' })), 'mood'],
      ['/api/v1/handoffs', json(key, '[1, 2'), 'body'],
      ['/api/v1/handoffs', json(key, '"just a string"'), 'body'],
      ['/api/v1/decisions', json(key, { decision: '' }), 'decision'],
      ['/api/v1/decisions?status=maybe', get(key), 'status'],
    ]
    for (const [path, init, field] of cases) {
      const response = await send(path, init)
      const body = await response.json()
      expect(response.status, `${path} ${String(init.body)}`).toBe(400)
      expect(body.error.field, `${path} ${String(init.body)}`).toBe(field)
      expect(body.error.message).toContain(field)
    }
    const unknownType = await (
      await send('/api/v1/consolidation/run', json(key, { job_type: 'defragment' }))
    ).json()
    expect(unknownType.error.valid_values).toContain('handoff_compression')
  })

  it('refuses a taken handoff_id and another tenant’s parent with 400 naming the field', async () => {
    const first = api().keys.first
    const body = handoffBody('s-dup', { handoff_id: 'client-chosen-id-1' })
    expect((await send('/api/v1/handoffs', json(first, body))).status).toBe(201)
    const again = await send('/api/v1/handoffs', json(first, body))
    expect(again.status).toBe(400)
    expect((await again.json()).error.field).toBe('handoff_id')
    // The second tenant cannot hang its handoff under the first tenant's, nor learn it exists.
    const foreign = await send(
      '/api/v1/handoffs',
      json(api().keys.second, handoffBody('s-child', { parent_handoff_id: 'client-chosen-id-1' })),
    )
    const missing = await send(
      '/api/v1/handoffs',
      json(api().keys.second, handoffBody('s-child', { parent_handoff_id: 'no-such-handoff' })),
    )
    expect(foreign.status).toBe(400)
    expect(missing.status).toBe(400)
    const foreignError = (await foreign.json()).error
    const missingError = (await missing.json()).error
    expect(foreignError.field).toBe('parent_handoff_id')
    // Word for word the answer for an id that exists nowhere.
    expect(foreignError.message.replace('client-chosen-id-1', 'X')).toBe(
      missingError.message.replace('no-such-handoff', 'X'),
    )
    const child = await send(
      '/api/v1/handoffs',
      json(first, handoffBody('s-child', { parent_handoff_id: 'client-chosen-id-1' })),
    )
    expect(child.status).toBe(201)
  })

  it('answers 413 naming the body for an oversized body, and 415 for one that is not JSON', async () => {
    const huge = handoffBody('s-huge', { story: 'x'.repeat(2 * 1024 * 1024) })
    const tooLarge = await send('/api/v1/handoffs', json(api().keys.first, huge))
    expect(tooLarge.status).toBe(413)
    expect((await tooLarge.json()).error.field).toBe('body')
    const notJson = await send('/api/v1/handoffs', {
      method: 'POST',
      headers: { authorization: `Bearer ${api().keys.first}`, 'content-type': 'text/plain' },
      body: 'session_id=s',
    })
    expect(notJson.status).toBe(415)
  })

  it('answers 404 for an unknown id and an unknown route', async () => {
    const missing = await send('/api/v1/handoffs/ho_missing', get(api().keys.first))
    expect(missing.status).toBe(404)
    expect((await missing.json()).error.field).toBe('handoff_id')
    expect((await send('/api/v1/nothing', get(api().keys.first))).status).toBe(404)
  })

  it('stops accepting a key once it is revoked', async () => {
    const key = api().keys.second
    expect((await send('/api/v1/consolidation/jobs', get(key))).status).toBe(200)
    await api().revoke(key)
    expect((await send('/api/v1/consolidation/jobs', get(key))).status).toBe(401)
  })
}
