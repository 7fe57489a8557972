/**
 * The creature sleep cycle per tenant over HTTP (issue 12's last bullet), on PGlite, in-process
 * (app.request) and over a real loopback socket: fatigue past the limit gives a dream, the wake
 * message after a sleep, the voluntary sleep rules, recall, tenant isolation on every mind route,
 * bad input named by its field. The creatures live in real folders; the clock is injected.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type * as z from 'zod'
import { ErrorResponseSchema } from '../../src/surfaces/http/schemas/common-schemas.ts'
import {
  MindContextResponseSchema,
  MindDreamsResponseSchema,
  MindEventsResponseSchema,
  MindObservationsResponseSchema,
  MindRecallResponseSchema,
  MindSleepResponseSchema,
  MindStatusResponseSchema,
  MindToolsResponseSchema,
  MindWakeResponseSchema,
} from '../../src/surfaces/http/schemas/mind-schemas.ts'
import { tenantMinds } from '../../src/surfaces/http/tenant-minds.ts'
import {
  type HttpServiceFixture,
  openHttpService,
  type Transport,
} from '../support/http-service.ts'

const START = Date.parse('2026-02-12T08:00:00Z')

/** Deterministic work: a PR merged, a test failing, a file read. */
function actionEvent(index: number) {
  if (index % 10 === 0) {
    return { type: 'action', tool: 'bash', content: `gh pr merge ${index} -> PR #${index} merged` }
  }
  if (index % 7 === 0) {
    return { type: 'action', tool: 'bash', content: `npm test -> 2 failed in auth.spec.ts` }
  }
  return { type: 'action', tool: 'read', content: `cat src/config-${index % 9}.ts -> retries: 3` }
}

for (const transport of ['in-process', 'socket'] as Transport[]) {
  describe(`the mind routes (${transport})`, () => {
    let fixture: HttpServiceFixture
    let folder: string
    let now = START
    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'somnus-minds-'))
      const minds = tenantMinds({ folder, clock: { now: () => new Date(now) } })
      fixture = await openHttpService('pglite', transport, { minds })
    })
    afterAll(async () => {
      await fixture?.close()
      rmSync(folder, { recursive: true, force: true })
    })

    const send = async <Schema extends z.ZodType>(
      schema: Schema,
      path: string,
      options: { key?: string | null; body?: unknown; status?: number } = {},
    ): Promise<z.output<Schema>> => {
      const key = options.key === undefined ? fixture.keys.first : options.key
      const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` }
      const init: RequestInit =
        options.body === undefined
          ? { method: path.split('?')[0]?.endsWith('/wake') ? 'POST' : 'GET', headers }
          : {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
            }
      const response = await fixture.send(path, init)
      const json = await response.json()
      expect({ status: response.status, json }).toMatchObject({ status: options.status ?? 200 })
      // Every answer is what /openapi.json says it is.
      return schema.parse(json)
    }
    const events = (body: unknown, key?: string) =>
      send(MindEventsResponseSchema, '/api/v1/mind/events', { body, ...(key ? { key } : {}) })

    it('warns at 60 actions, and at 80 consolidates and puts the creature to sleep', async () => {
      await events({
        events: [
          { type: 'message', role: 'user', content: 'Ship the janee release by Friday.' },
          { type: 'message', role: 'assistant', content: 'Starting with the failing auth tests.' },
        ],
      })
      const first = await events({
        events: Array.from({ length: 59 }, (_, index) => actionEvent(index + 1)),
      })
      expect(first.actions).toBe(59)
      expect(first.warning).toBeNull()
      expect(first.results.map((result) => result.line)).toEqual(
        Array.from({ length: 59 }, (_, index) => index + 3),
      )
      now += 59 * 30_000

      const tired = await events({ events: [actionEvent(60)] })
      expect(tired.actions).toBe(60)
      expect(tired.warning).toMatch(/active for a while/)
      const status = await send(MindStatusResponseSchema, '/api/v1/mind/status')
      expect(status).toMatchObject({ fatigue: 'tired', actions: 60, dreams: 0, sleeping: null })

      const exhausted = await events({
        events: Array.from({ length: 20 }, (_, index) => actionEvent(index + 61)),
      })
      expect(exhausted.warning).toBeNull()
      expect(exhausted.forced_sleep).toMatchObject({
        consolidation: 'full',
        dream: { kind: 'full', actions: 80 },
        sleep: { reason: 'fatigue', seconds: 300 },
      })
      expect(exhausted.results.at(-1)?.forcedSleep?.dream).not.toBeNull()
      expect(exhausted.actions).toBe(0)

      const asleep = await send(MindStatusResponseSchema, '/api/v1/mind/status')
      expect(asleep).toMatchObject({ dreams: 1, actions: 0, sleeping: { reason: 'fatigue' } })
      const dreams = await send(MindDreamsResponseSchema, '/api/v1/mind/dreams')
      expect(dreams.dreams).toHaveLength(1)
      expect(dreams.dreams[0]?.observations).toBeGreaterThan(0)
      const observations = await send(MindObservationsResponseSchema, '/api/v1/mind/observations')
      expect(observations.observations.length).toBe(dreams.dreams[0]?.observations)
      expect(observations.text).toMatch(/^## 2026-02-12$/m)
      expect(observations.text).toMatch(/^(RED|YLW|GRN) \d\d:\d\d \S/m)
      // The tenant's creature is a real folder in the seed's formats.
      const conversation = readFileSync(join(folder, 'acme', 'conversation.jsonl'), 'utf8')
      expect(conversation).toContain('Ship the janee release by Friday.')
      expect(
        readFileSync(join(folder, 'acme', 'dreams.jsonl'), 'utf8')
          .trim()
          .split('\n'),
      ).toHaveLength(1)
    })

    it('wakes with the seed’s message after the sleep', async () => {
      now += 300_000
      const woke = await send(MindWakeResponseSchema, '/api/v1/mind/wake')
      expect(woke).toMatchObject({ wasAsleep: true, early: false, cycle: 2, sleptSeconds: 300 })
      expect(woke.message).toMatch(
        /^You woke up at 2026-02-12T08:\d\d:\d\dZ after sleeping 300s\. This is cycle 2\./,
      )
      expect(woke.message).toContain('During sleep you reflected:')
      expect(woke.message).toContain('Your priority:')
      expect(woke.message).toContain('Recent observations:')
      expect(woke.message).toContain('Full history: minds/acme/conversation.jsonl')
      const context = await send(MindContextResponseSchema, '/api/v1/mind/context')
      expect(context.messages.at(-1)?.entry).toMatchObject({ role: 'system', kind: 'wake' })
      // Awake: waking again changes nothing.
      const again = await send(MindWakeResponseSchema, '/api/v1/mind/wake')
      expect(again).toMatchObject({ wasAsleep: false, cycle: 2 })
    })

    it('a voluntary sleep: too soon or too short only pauses; later it consolidates', async () => {
      await events({
        events: [
          { type: 'message', role: 'user', content: 'Deploy staging after lunch.', name: 'Dana' },
          actionEvent(10),
        ],
      })
      const tooSoon = await send(MindSleepResponseSchema, '/api/v1/mind/sleep', {
        body: { seconds: 300 },
      })
      expect(tooSoon).toMatchObject({ consolidation: 'none', dream: null })
      expect(tooSoon.text).toMatch(/No consolidation/)
      await send(MindWakeResponseSchema, '/api/v1/mind/wake')
      now += 11 * 60_000
      const nap = await send(MindSleepResponseSchema, '/api/v1/mind/sleep', {
        body: { seconds: 10 },
      })
      expect(nap).toMatchObject({ consolidation: 'none', dream: null })
      await send(MindWakeResponseSchema, '/api/v1/mind/wake')
      const slept = await send(MindSleepResponseSchema, '/api/v1/mind/sleep', {
        body: { seconds: 60 },
      })
      // Two actions, two messages: a light dream, no model call.
      expect(slept).toMatchObject({ consolidation: 'light', dream: { kind: 'light' } })
      expect(slept.text).toMatch(/^Sleeping 60 s, until .*Dreamed \(light\)/)
      const status = await send(MindStatusResponseSchema, '/api/v1/mind/status')
      expect(status).toMatchObject({ dreams: 2, deep_sleep_in: 8, sleeping: { seconds: 60 } })
    })

    it('recalls lines of total recall, each at its file and line', async () => {
      const recall = await send(
        MindRecallResponseSchema,
        '/api/v1/mind/recall?q=janee%20release&limit=3',
      )
      expect(recall.hits.length).toBeGreaterThan(0)
      expect(recall.hits.length).toBeLessThanOrEqual(3)
      expect(recall.hits[0]).toMatchObject({ file: 'conversation.jsonl', line: 1 })
      expect(recall.hits[0]?.text).toContain('janee release')
      const red = await send(
        MindObservationsResponseSchema,
        '/api/v1/mind/observations?priority=GRN',
      )
      expect(red.observations.every((line) => line.priority === 'GRN')).toBe(true)
    })

    it("never shows one tenant's creature to another tenant's key", async () => {
      const other = fixture.keys.second
      const status = await send(MindStatusResponseSchema, '/api/v1/mind/status', { key: other })
      expect(status).toMatchObject({ tenant_id: 'globex', dreams: 0, actions: 0, cycle: 1 })
      expect(status.location).toBe('minds/globex')
      const readBack = [
        await send(MindDreamsResponseSchema, '/api/v1/mind/dreams', { key: other }),
        await send(MindObservationsResponseSchema, '/api/v1/mind/observations', { key: other }),
        await send(MindRecallResponseSchema, '/api/v1/mind/recall?q=janee', { key: other }),
        await send(MindContextResponseSchema, '/api/v1/mind/context', { key: other }),
      ]
      expect(JSON.stringify(readBack)).not.toMatch(/janee|auth\.spec|acme/)
      const woke = await send(MindWakeResponseSchema, '/api/v1/mind/wake', { key: other })
      expect(woke.message).not.toMatch(/janee|auth|acme/)
      await events({ events: [{ type: 'action', tool: 'bash', content: 'globex only' }] }, other)
      expect(readFileSync(join(folder, 'globex', 'conversation.jsonl'), 'utf8')).toContain(
        'globex only',
      )
      expect(readFileSync(join(folder, 'acme', 'conversation.jsonl'), 'utf8')).not.toContain(
        'globex only',
      )
      // Naming the other tenant is a 404, on every route, as if it did not exist.
      const paths: Array<[string, unknown]> = [
        ['/api/v1/mind/events?tenant_id=acme', { events: [actionEvent(1)] }],
        ['/api/v1/mind/sleep?tenant_id=acme', { seconds: 300 }],
        ['/api/v1/mind/wake?tenant_id=acme', undefined],
        ['/api/v1/mind/status?tenant_id=acme', undefined],
        ['/api/v1/mind/observations?tenant_id=acme', undefined],
        ['/api/v1/mind/dreams?tenant_id=acme', undefined],
        ['/api/v1/mind/recall?tenant_id=acme&q=janee', undefined],
        ['/api/v1/mind/context?tenant_id=acme', undefined],
        ['/api/v1/mind/tools?tenant_id=acme', undefined],
      ]
      for (const [path, body] of paths) {
        const refused = await send(ErrorResponseSchema, path, { key: other, body, status: 404 })
        expect(refused.error).toMatchObject({ code: 'NOT_FOUND', field: 'tenant_id' })
        expect(refused.error.message).not.toContain('janee')
      }
      const acme = await send(MindStatusResponseSchema, '/api/v1/mind/status')
      expect(acme.dreams).toBe(2)
      // Without a key, nothing.
      for (const [path, body] of paths) {
        await send(ErrorResponseSchema, path.replace(/\?.*/, ''), { key: null, body, status: 401 })
      }
      expect(existsSync(join(folder, 'default'))).toBe(false)
    })

    it('answers bad input with 400 naming the field', async () => {
      const cases: Array<[string, unknown, string]> = [
        ['/api/v1/mind/events', {}, 'events'],
        ['/api/v1/mind/events', { events: [] }, 'events'],
        ['/api/v1/mind/events', { events: [{ type: 'dance', content: 'x' }] }, 'events.0.type'],
        ['/api/v1/mind/events', { events: [{ type: 'action', content: 'x' }] }, 'events.0.tool'],
        [
          '/api/v1/mind/events',
          { events: [{ type: 'message', role: 'tool', content: 'x' }] },
          'events.0.role',
        ],
        [
          '/api/v1/mind/events',
          { events: [{ type: 'message', role: 'user', content: '' }] },
          'events.0.content',
        ],
        ['/api/v1/mind/events', { events: [actionEvent(1)], extra: 1 }, 'extra'],
        ['/api/v1/mind/events', '{"events": [', 'body'],
        ['/api/v1/mind/sleep', { seconds: 'soon' }, 'seconds'],
        ['/api/v1/mind/sleep', { seconds: 2.5 }, 'seconds'],
        ['/api/v1/mind/sleep', { seconds: 1 }, 'seconds'],
        ['/api/v1/mind/sleep', { seconds: 10 ** 9 }, 'seconds'],
        ['/api/v1/mind/recall', undefined, 'q'],
        ['/api/v1/mind/recall?q=%20', undefined, 'q'],
        ['/api/v1/mind/recall?q=x&limit=0', undefined, 'limit'],
        ['/api/v1/mind/dreams?limit=many', undefined, 'limit'],
        ['/api/v1/mind/observations?priority=BLUE', undefined, 'priority'],
      ]
      const before = readFileSync(join(folder, 'acme', 'conversation.jsonl'), 'utf8')
      for (const [path, body, field] of cases) {
        const refused = await send(ErrorResponseSchema, path, { body, status: 400 })
        expect({ path, error: refused.error }).toMatchObject({
          path,
          error: { code: 'INVALID_INPUT', field },
        })
      }
      // Nothing of a refused request was logged, and the creature did not fall asleep.
      expect(readFileSync(join(folder, 'acme', 'conversation.jsonl'), 'utf8')).toBe(before)
      const priority = await send(ErrorResponseSchema, '/api/v1/mind/observations?priority=BLUE', {
        status: 400,
      })
      expect(priority.error.valid_values).toEqual(['RED', 'YLW', 'GRN'])
      const unsupported = await fixture.send('/api/v1/mind/sleep', {
        method: 'POST',
        headers: { authorization: `Bearer ${fixture.keys.first}` },
        body: '{"seconds": 300}',
      })
      expect(unsupported.status).toBe(415)
    })

    it('hands out the set_sleep tool with the creature’s range', async () => {
      const tools = await send(MindToolsResponseSchema, '/api/v1/mind/tools')
      expect(tools.tools).toEqual([
        expect.objectContaining({
          name: 'set_sleep',
          input_schema: expect.objectContaining({ required: ['seconds'] }),
        }),
      ])
      expect(tools.tools[0]?.input_schema.properties.seconds).toMatchObject({
        minimum: 2,
        maximum: 86_400,
      })
    })

    it('loses no action when requests for one creature arrive at once', async () => {
      const other = fixture.keys.second
      const before = await send(MindStatusResponseSchema, '/api/v1/mind/status', { key: other })
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, request) =>
          events(
            {
              events: Array.from({ length: 5 }, (_, index) => ({
                type: 'action',
                tool: 'bash',
                content: `parallel request ${request} action ${index}`,
              })),
            },
            other,
          ),
        ),
      )
      const lines = answers.flatMap((answer) => answer.results.map((result) => result.line))
      expect(new Set(lines).size).toBe(40)
      const after = await send(MindStatusResponseSchema, '/api/v1/mind/status', { key: other })
      expect(after.actions).toBe(before.actions + 40)
      const logged = readFileSync(join(folder, 'globex', 'conversation.jsonl'), 'utf8')
      expect(logged.match(/parallel request/g)).toHaveLength(40)
    })

    it('describes every mind route in /openapi.json', async () => {
      const response = await fixture.send('/openapi.json')
      const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> }
      for (const [path, method] of [
        ['/api/v1/mind/events', 'post'],
        ['/api/v1/mind/sleep', 'post'],
        ['/api/v1/mind/wake', 'post'],
        ['/api/v1/mind/status', 'get'],
        ['/api/v1/mind/observations', 'get'],
        ['/api/v1/mind/dreams', 'get'],
        ['/api/v1/mind/recall', 'get'],
        ['/api/v1/mind/context', 'get'],
        ['/api/v1/mind/tools', 'get'],
      ] as const) {
        expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined()
      }
      expect(JSON.stringify(document.paths['/api/v1/mind/events'])).toContain('MindEventsInput')
    })
  })
}
