/**
 * Client input that the database cannot hold is refused at the edge with a 4xx naming the field,
 * never a 500 (issue 22 item 4), over a real socket on both databases: NUL characters and unpaired
 * surrogates in any text field, path id, query value or cursor; dates outside the years 1-9999;
 * crafted cursors. The CLI refuses the same in import files and options. A client's decoded
 * request path cannot forge a line in the server's log.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import { startHttpServer } from '../../src/surfaces/http/start-http-server.ts'
import { type Answer, get, handoffBody, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import { ENGINES, engineAvailable } from '../support/service-database.ts'

const NUL = '\u0000'

/** A cursor with `value` inside, encoded as the server encodes its own. */
const cursorOf = (value: unknown) =>
  encodeURIComponent(Buffer.from(JSON.stringify(value)).toString('base64url'))

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`client input on ${engine}, over a socket`, () => {
    let api: HttpServiceFixture
    const send = (path: string, init?: RequestInit) => api.send(path, init) as Promise<Answer>
    beforeAll(async () => {
      api = await openHttpService(engine, 'socket')
    })
    afterAll(async () => {
      await api?.close()
    })

    it('answers 400 naming the field for text the database cannot hold, never 500', async () => {
      const key = api.keys.first
      const cases: Array<[string, RequestInit, string]> = [
        ['/api/v1/handoffs', json(key, handoffBody(`s${NUL}1`)), 'session_id'],
        [
          '/api/v1/handoffs',
          json(key, handoffBody('s', { experienced: `a${NUL}b` })),
          'experienced',
        ],
        ['/api/v1/handoffs', json(key, handoffBody('s', { with_whom: NUL })), 'with_whom'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { tags: ['ok', `t${NUL}`] })), 'tags.1'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { sources: [NUL] })), 'sources.0'],
        [
          '/api/v1/handoffs',
          json(key, handoffBody('s', { turns: [{ id: 'D1:1', text: `hi${NUL}` }] })),
          'turns.0.text',
        ],
        [
          '/api/v1/handoffs',
          json(key, handoffBody('s', { turns: [{ id: 'D1:1', text: 'half \ud800 a pair' }] })),
          'turns.0.text',
        ],
        ['/api/v1/handoffs', json(key, handoffBody('s', { story: 'lone \udc00' })), 'story'],
        ['/api/v1/handoffs', json(key, handoffBody('s', { handoff_id: `h${NUL}` })), 'handoff_id'],
        ['/api/v1/decisions', json(key, { decision: `d${NUL}` }), 'decision'],
        ['/api/v1/decisions', json(key, { decision: 'd', rationale: NUL }), 'rationale'],
        ['/api/v1/handoffs/a%00b', get(key), 'handoff_id'],
        ['/api/v1/decisions/a%00b', get(key), 'decision_id'],
        ['/api/v1/handoffs?tenant_id=acme%00', get(key), 'tenant_id'],
        ['/api/v1/handoffs?cursor=%00', get(key), 'cursor'],
        ['/api/v1/consolidation/jobs?status=%00', get(key), 'status'],
      ]
      for (const [path, init, field] of cases) {
        const response = await send(path, init)
        const body = await response.json()
        expect(response.status, `${path} ${String(init.body).slice(0, 120)}`).toBe(400)
        expect(body.error.field, path).toBe(field)
        expect(body.error.message).toContain(field)
        expect(body.error.message).not.toContain(NUL)
      }
    })

    it('refuses dates outside the years 0001-9999 naming the field', async () => {
      const key = api.keys.first
      const cases: Array<[string, RequestInit, string]> = [
        [
          '/api/v1/handoffs',
          json(key, handoffBody('s', { created_at: '0000-01-01T00:00:00Z' })),
          'created_at',
        ],
        [
          '/api/v1/handoffs',
          json(key, handoffBody('s', { created_at: '0001-01-01T00:00:00+01:00' })),
          'created_at',
        ],
        [
          '/api/v1/decisions',
          json(key, { decision: 'd', created_at: '0000-06-01T00:00:00Z' }),
          'created_at',
        ],
        ['/api/v1/consolidation/run', json(key, { as_of: '0000-01-01' }), 'as_of'],
      ]
      for (const [path, init, field] of cases) {
        const response = await send(path, init)
        expect(response.status, `${path} ${String(init.body)}`).toBe(400)
        expect((await response.json()).error.field).toBe(field)
      }
      // The edges of the range are stored and read back as sent.
      const earliest = await send(
        '/api/v1/handoffs',
        json(key, handoffBody('s-old', { created_at: '0001-01-01T00:00:00Z' })),
      )
      expect(earliest.status).toBe(201)
      expect((await earliest.json()).handoff.created_at).toBe('0001-01-01T00:00:00.000Z')
    })

    it('refuses a body nested past any field and one that is not UTF-8 with 400, storing nothing', async () => {
      const key = api.keys.first
      const before = await (await send('/api/v1/handoffs?limit=500', get(key))).json()
      const post = (body: string | Uint8Array, type = 'application/json') =>
        send('/api/v1/handoffs', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': type },
          body,
        })
      // 100,000 brackets: a walk over it would overflow the stack (a 500).
      const deep = await post(`{"learned":"x","tags":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)
      expect(deep.status).toBe(400)
      const deepError = (await deep.json()).error
      expect(deepError.field).toBe('tags')
      expect(deepError.message).toMatch(/nests deeper than 32 levels/)
      // Latin-1 é and stray bytes: decoded leniently they would be stored as U+FFFD.
      for (const body of [
        Buffer.from('{"learned":"caf\xe9"}', 'latin1'),
        Buffer.from([...Buffer.from('{"learned":"'), 0xff, 0xfe, 0xc0, 0xaf, ...Buffer.from('"}')]),
      ]) {
        const answer = await post(new Uint8Array(body))
        expect(answer.status).toBe(400)
        const error = (await answer.json()).error
        expect(error.field).toBe('body')
        expect(error.message).toMatch(/not valid UTF-8/)
      }
      // UTF-8 with a byte-order mark is still JSON.
      const bom = await post(`\ufeff${JSON.stringify({ learned: 'café ✓' })}`)
      expect(bom.status).toBe(201)
      expect((await bom.json()).handoff.learned).toBe('café ✓')
      const after = await (await send('/api/v1/handoffs?limit=500', get(key))).json()
      expect(after.count).toBe(before.count + 1)
    })

    it('refuses crafted cursors with 400 naming cursor, and pages on with real ones', async () => {
      const key = api.keys.second
      for (let index = 0; index < 3; index += 1) {
        await send('/api/v1/handoffs', json(key, handoffBody(`s-cursor-${index}`)))
      }
      const crafted = [
        cursorOf(['1', 'x']),
        cursorOf(['2026-01-01T00:00:00.000Z', `x${NUL}`]),
        cursorOf(['2026-01-01', 'x']),
        cursorOf(['0000-01-01T00:00:00.000Z', 'x']),
        cursorOf(['2026-02-30T00:00:00.000Z', 'x']),
        cursorOf(['2026-01-01T00:00:00.000Z', 'x', 'extra']),
        cursorOf({ created_at: '2026-01-01T00:00:00.000Z' }),
        cursorOf(['2026-01-01T00:00:00.000Z', '']),
        'not base64 at all!',
      ]
      for (const path of ['/api/v1/handoffs', '/api/v1/decisions', '/api/v1/principles']) {
        for (const cursor of crafted) {
          const response = await send(`${path}?cursor=${cursor}`, get(key))
          expect(response.status, `${path} ${cursor}`).toBe(400)
          expect((await response.json()).error.field).toBe('cursor')
        }
      }
      const first = await (await send('/api/v1/handoffs?limit=2', get(key))).json()
      expect(first.next_cursor).not.toBeNull()
      const second = await send(
        `/api/v1/handoffs?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`,
        get(key),
      )
      expect(second.status).toBe(200)
    })
  })
}

describe('the server log', () => {
  it('escapes a decoded request path, so a client cannot forge a log line (over a socket)', async () => {
    const lines: string[] = []
    const app = createHttpApp({
      service: {
        tenantForKey: async () => 'acme',
        tenantExists: async () => true,
        getHandoff: async () => {
          throw new Error('disk on fire\nsomnus serve: forged by the error')
        },
      } as never,
      auth: { required: true },
      version: 't',
      log: (line) => lines.push(line),
    })
    const server = await startHttpServer({
      fetch: app.fetch,
      host: '127.0.0.1',
      port: 0,
      authRequired: true,
    })
    try {
      const forged = encodeURIComponent('x\nsomnus serve: GET /admin failed: forged\r\n')
      const response = await fetch(`${server.url}/api/v1/handoffs/${forged}`, {
        headers: { authorization: 'Bearer smn_anything' },
      })
      expect(response.status).toBe(500)
    } finally {
      await server.close()
    }
    const written = lines.join('')
    expect(written.split('\n').filter((line) => line !== '')).toHaveLength(1)
    // The path arrives decoded (%0A is a newline again) and is written escaped.
    expect(written).toContain('/api/v1/handoffs/x\\nsomnus serve')
    expect(written).toContain('forged\\r\\n failed:')
    expect(written).toContain('disk on fire\\nsomnus serve: forged by the error')
  })
})

describe('the CLI', () => {
  let folder: string
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'somnus-client-input-'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  const somnus = (args: string[], stdin?: string) =>
    runCliCaptured([...args, '--db', join(folder, 'db')], {
      cwd: folder,
      env: { HOME: folder },
      ...(stdin === undefined ? {} : { stdin }),
    })

  it('refuses NULs, year 0000 and crafted cursors with the field, storing nothing', async () => {
    const lines = [
      JSON.stringify({ experienced: 'fine' }),
      JSON.stringify({ experienced: 'fine', turns: [{ id: 'a', text: `x${NUL}` }] }),
    ].join('\n')
    const nul = await somnus(['handoffs', 'import', '--format', 'jsonl'], lines)
    expect(nul.code).toBe(1)
    expect(nul.stderr).toContain('turns.0.text')
    expect(nul.stderr).toContain('NUL')
    const year = await somnus(
      ['handoffs', 'import', '--format', 'jsonl'],
      JSON.stringify({ experienced: 'old', created_at: '0000-01-01T00:00:00Z' }),
    )
    expect(year.code).toBe(1)
    expect(year.stderr).toContain('created_at')
    const asOf = await somnus(['consolidate', 'run', '--as-of', '0000-01-01'])
    expect(asOf.code).toBe(2)
    expect(asOf.stderr).toContain('--as-of')
    const cursor = await somnus(['handoffs', 'list', '--cursor', cursorOf(['1', 'x'])])
    expect(cursor.code).toBe(1)
    expect(cursor.stderr).toContain('cursor')
    const listed = await somnus(['handoffs', 'list', '--json'])
    expect(JSON.parse(listed.stdout).items).toEqual([])
  }, 120_000)
})
